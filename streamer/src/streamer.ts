/**
 * The poll loop: each cycle (only while leader) reads the watch set, polls the provider through
 * the poller (chunks, back-off, stale cache), publishes one tick batch and logs one line.
 * Cycles never overlap: the next starts one interval after the previous one started, or at once
 * when it overran. A failing cycle is logged and the next one runs.
 *
 * With a market calendar (real feeds) it polls only while the market is open, plus once per
 * instrument after each close (so a restart or a newly watched instrument out of hours still
 * gets its closing price). A cycle that yields no quotes publishes nothing; one that yields more
 * than a batch can carry publishes several.
 */
import type { MarketCalendar } from '@app/common/market/calendar';
import { MAX_QUOTES_PER_BATCH, type TickBatch } from '@app/common/market/tick-batch';
import type { Logger } from 'pino';
import { createAfterCloseFilter } from './after-close.ts';
import type { MarketBus } from './bus/types.ts';
import { createFeedStateReporter } from './feed-state.ts';
import type { LeaderLock } from './leader.ts';
import { createQuotePoller, type BackoffOptions } from './poll.ts';
import type { QuoteProvider } from './providers/types.ts';

/** What a streamer needs; every collaborator is injected (STYLE 7). */
export interface StreamerDeps {
  bus: MarketBus;
  provider: QuoteProvider;
  intervalMs: number;
  log: Logger;
  /** Poll only in market hours (plus once after the close). Default: the provider's calendar. */
  calendar?: MarketCalendar;
  /** Poll only while holding it (scaled mode); started and released with the streamer. */
  leader?: LeaderLock;
  backoff?: BackoffOptions;
  now?: () => number;
}

/** A running poll loop. */
export interface Streamer {
  /** Starts the loop; the first cycle runs at once (or as soon as the leader lock is held). */
  start(): void;
  /** Stops the loop, waits for a running cycle (cutting back-off waits short), releases the lock. */
  stop(): Promise<void>;
}

/** Creates a streamer; nothing runs before `start()`. */
export function createStreamer(deps: StreamerDeps): Streamer {
  const { bus, provider, intervalMs, log, leader } = deps;
  const calendar = deps.calendar ?? provider.calendar;
  const now = deps.now ?? Date.now;
  const poller = createQuotePoller({ provider, backoff: deps.backoff, now, intervalMs, calendar });
  const afterClose = createAfterCloseFilter(provider.ignoresWatchSet ? undefined : calendar);
  // A report outlives three missed cycles before the key expires.
  const feedState = createFeedStateReporter({ bus, log, now, ttlMs: Math.max(30_000, 3 * intervalMs) });
  const idle = { streamed: 0, polled: 0, unsupported: [] };
  let running = false;
  let runStartedAt = 0;
  let seq = 0;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let abort = new AbortController();
  let unwatchLeader: (() => void) | undefined;

  async function cycle(): Promise<void> {
    if (leader && !leader.isLeader()) {
      log.debug('standing by: another streamer holds the leader lock');
      return;
    }
    const startedAt = now();
    const watched = await bus.getWatchSet();
    const due = afterClose.due(watched, startedAt);
    const instruments = due ?? watched;
    const delayMinutes = provider.delayMinutes ?? 0;
    if (instruments.length === 0 && !provider.ignoresWatchSet) {
      log.debug({ watched: watched.length, marketOpen: due === undefined }, 'nothing to poll this cycle');
      await feedState.report({ provider: provider.name, state: 'live', delayMinutes, instruments: idle });
      return;
    }
    const result = await poller.poll(instruments, abort.signal);
    // Down only when it priced nothing and said why; an empty scripted cycle is not a failure.
    const failed = result.fresh === 0 && result.errors.length > 0;
    await feedState.report({
      provider: provider.name,
      state: failed ? 'down' : 'live',
      ...(failed ? { reason: result.errors[0]!.message.slice(0, 500) } : {}),
      delayMinutes,
      instruments: { ...idle, polled: instruments.length },
    });
    if (due) afterClose.polled(result.quotes);
    // A watch set larger than one message goes out as several batches, never refused.
    const ids: string[] = [];
    for (let start = 0; start < result.quotes.length; start += MAX_QUOTES_PER_BATCH) {
      const id = `${runStartedAt}-${++seq}`;
      const quotes = result.quotes.slice(start, start + MAX_QUOTES_PER_BATCH);
      const batch: TickBatch = { v: 1, id, at: Date.now(), source: provider.name, quotes };
      await bus.publishBatch(batch);
      ids.push(id);
    }
    log.info(
      {
        batch: ids[0],
        ...(ids.length > 1 ? { batches: ids } : {}),
        instruments: instruments.length,
        quotes: result.quotes.length,
        stale: result.stale,
        missing: result.missing,
        ...(result.unavailable > 0 ? { unavailable: result.unavailable } : {}),
        ...(result.tooOld > 0 ? { tooOld: result.tooOld } : {}),
        requests: result.requests,
        errors: result.errors.length,
        ...(result.errors.length > 0 ? { errorDetails: result.errors.slice(0, 5) } : {}),
        ...(result.backoffUntil ? { backoffUntil: new Date(result.backoffUntil).toISOString() } : {}),
        ...(due ? { afterClose: true } : {}),
        durationMs: now() - startedAt,
      },
      'poll cycle',
    );
  }

  function schedule(delayMs: number): void {
    clearTimeout(timer);
    timer = setTimeout(runLoop, Math.max(0, delayMs));
  }

  function runLoop(): void {
    if (!running || inFlight) return;
    const begun = now();
    inFlight = cycle()
      .catch((err: unknown) => log.error({ err }, 'poll cycle failed'))
      .finally(() => {
        inFlight = undefined;
        if (running) schedule(begun + intervalMs - now());
      });
  }

  return {
    start() {
      if (running) return;
      running = true;
      runStartedAt = now();
      seq = 0;
      abort = new AbortController();
      if (leader) {
        unwatchLeader = leader.onChange((isLeader) => {
          if (isLeader && running && !inFlight) schedule(0);
        });
        leader.start();
      }
      runLoop();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      abort.abort();
      await inFlight;
      unwatchLeader?.();
      await leader?.stop();
    },
  };
}
