/**
 * A broker's stream as the streamer's quote source (docs/live-prices.md#streaming-feeds). It
 * holds one `QuoteStream` and the fallback `QuoteProvider`:
 * - the watch set is re-read every `watchRefreshMs` and handed to `stream.watch()` when it
 *   changes (the stream subscribes by difference);
 * - every `batchMs` it publishes ONE tick batch of the latest quote per instrument received since
 *   the last (nothing received, nothing published), streamed quotes with `delayMinutes: 0` and
 *   the exchange's time (else the receive time);
 * - every `intervalMs` the poller (`../poll.ts`) polls the fallback for what the stream does not
 *   price: the instruments it called unsupported, and while it is not live (connecting, down,
 *   its credentials refused) every instrument; those quotes go out in the next batch with the
 *   fallback's delay. A batch's `source` is the stream while it is live, else the fallback;
 * - only the leader holds the stream: on losing the lock it stops the stream and publishes
 *   nothing until it leads again.
 */
import type { Quote, TickBatch } from '@app/common/market/tick-batch';
import { instrumentKey, MAX_QUOTES_PER_BATCH } from '@app/common/market/tick-batch';
import { priceChange } from '@app/common/market/quote-math';
import type { Logger } from 'pino';
import { createAfterCloseFilter } from '../after-close.ts';
import type { MarketBus } from '../bus/types.ts';
import { createFeedStateReporter } from '../feed-state.ts';
import type { LeaderLock } from '../leader.ts';
import { createQuotePoller, type BackoffOptions } from '../poll.ts';
import { startPeriodicTask } from './periodic.ts';
import type { QuoteProvider, WatchedInstrument } from '../providers/types.ts';
import type { Streamer } from '../streamer.ts';
import type { QuoteStream, StreamCredentials, StreamQuote, StreamState } from './types.ts';

/** What a streaming feed needs; every collaborator is injected. */
export interface StreamingFeedDeps {
  bus: MarketBus;
  stream: QuoteStream;
  /** Polled for what the stream does not price (`QUOTE_FALLBACK`). */
  fallback: QuoteProvider;
  /** Between two tick batches (`FEED_BATCH_MS`). */
  batchMs: number;
  /** Between two polls of the fallback (`QUOTE_INTERVAL_MS`). */
  intervalMs: number;
  log: Logger;
  leader?: LeaderLock;
  /** How often the watch set is read again (default 1 s). */
  watchRefreshMs?: number;
  /** How often the feed state is written again when nothing changed (default 5 s). */
  stateRefreshMs?: number;
  backoff?: BackoffOptions;
  now?: () => number;
}

/** A running streaming feed: a `Streamer` that also takes new credentials. */
export interface StreamingFeed extends Streamer {
  /** The operator reconnected the broker: a refused stream connects again with these. */
  setCredentials(credentials: StreamCredentials): void;
}

const keyOf = (i: { exchange: string; symbol: string }) => instrumentKey(i.exchange, i.symbol);
/** What a stream keys an instrument by: a change (an ISIN learnt later) is a new watch set. */
const streamKeyOf = (i: WatchedInstrument) => `${keyOf(i)}=${i.isin ?? ''}/${i.scripCode ?? ''}`;

/** Creates a streaming feed; nothing runs before `start()`. */
export function createStreamingFeed(deps: StreamingFeedDeps): StreamingFeed {
  const { bus, stream, fallback, batchMs, intervalMs, log, leader } = deps;
  const now = deps.now ?? Date.now;
  const watchRefreshMs = deps.watchRefreshMs ?? 1000;
  const stateRefreshMs = deps.stateRefreshMs ?? 5000;
  const poller = createQuotePoller({ provider: fallback, backoff: deps.backoff, now, intervalMs });
  const afterClose = createAfterCloseFilter(fallback.calendar);
  const feedState = createFeedStateReporter({ bus, log, now, ttlMs: 3 * stateRefreshMs });
  /** Quotes to publish in the next batch, the latest per instrument. */
  const pending = new Map<string, Quote>();
  /** The previous close each instrument was last given: a stream mode without one keeps it. */
  const prevCloses = new Map<string, number>();
  let watched: WatchedInstrument[] = [];
  let watchedKeys = '';
  let unsupported: WatchedInstrument[] = [];
  let streamState: StreamState = { state: 'connecting' };
  let fallbackFailing: string | undefined;
  let running = false;
  let holding = false;
  let runStartedAt = 0;
  let seq = 0;
  /** Stop each periodic task (waiting for a running one). */
  let tasks: Array<() => Promise<void>> = [];
  let abort = new AbortController();
  let unwatchLeader: (() => void) | undefined;
  let stopping: Promise<void> | undefined;

  const isLive = () => streamState.state === 'live';

  function toQuote(q: StreamQuote): Quote {
    const key = keyOf(q);
    if (q.prevClose !== undefined && q.prevClose > 0) prevCloses.set(key, q.prevClose);
    const prevClose = prevCloses.get(key) ?? null;
    return {
      symbol: q.symbol,
      exchange: q.exchange,
      ltp: q.ltp,
      prevClose,
      ...priceChange(q.ltp, prevClose),
      asOf: Math.round(q.exchangeTime ?? q.receivedAt),
      delayMinutes: 0,
    };
  }

  function onQuote(q: StreamQuote): void {
    if (holding) pending.set(keyOf(q), toQuote(q));
  }

  function onState(next: StreamState): void {
    if (!holding) return;
    const wasLive = isLive();
    // What arrived under the source in force so far goes out under its name, at once.
    if (wasLive !== (next.state === 'live')) {
      flush().catch((err: unknown) => log.error({ err }, 'tick batch failed'));
    }
    streamState = next;
    log.info({ stream: stream.name, ...next }, 'stream state');
    void reportState();
  }

  /** The stream's instrument list arrived or changed: what it cannot carry is polled from now on. */
  function onUnsupported(list: WatchedInstrument[]): void {
    if (!holding) return;
    unsupported = list;
    log.info({ stream: stream.name, unsupported: list.length }, 'the stream can carry other instruments now');
    void reportState();
  }

  /** What the fallback polls now: unsupported instruments, and all of them while not live. */
  function polledSet(): WatchedInstrument[] {
    return isLive() ? unsupported : watched;
  }

  function reportState(): Promise<void> {
    const live = isLive();
    const polled = polledSet();
    const reason = live
      ? undefined
      : streamState.state === 'connecting'
        ? 'connecting to the stream'
        : 'reason' in streamState
          ? streamState.reason
          : undefined;
    return feedState.report({
      provider: stream.name,
      state: live ? 'live' : fallbackFailing === undefined ? 'fallback' : 'down',
      fallback: fallback.name,
      ...(reason !== undefined || fallbackFailing !== undefined
        ? { reason: [reason, fallbackFailing].filter(Boolean).join('; ').slice(0, 500) }
        : {}),
      delayMinutes: live ? 0 : (fallback.delayMinutes ?? 0),
      instruments: {
        streamed: live ? watched.length - unsupported.length : 0,
        polled: polled.length,
        unsupported: unsupported.map(keyOf),
      },
    });
  }

  async function syncWatch(): Promise<void> {
    const next = await bus.getWatchSet();
    const keys = next.map(streamKeyOf).join(',');
    if (keys === watchedKeys) return;
    watchedKeys = keys;
    watched = next;
    unsupported = stream.watch(next).unsupported;
    const wanted = new Set(next.map(keyOf));
    for (const key of pending.keys()) if (!wanted.has(key)) pending.delete(key);
    if (unsupported.length > 0) {
      log.warn(
        { stream: stream.name, unsupported: unsupported.length, first: unsupported.slice(0, 20).map(keyOf) },
        `instruments the stream cannot carry are polled from ${fallback.name}`,
      );
    }
    await reportState();
  }

  async function pollFallback(): Promise<void> {
    const startedAt = now();
    const candidates = polledSet();
    const due = afterClose.due(candidates, startedAt);
    const instruments = due ?? candidates;
    if (instruments.length === 0) return;
    const result = await poller.poll(instruments, abort.signal);
    if (due) afterClose.polled(result.quotes);
    if (!holding) return;
    // The stream may have come back meanwhile: keep only what it still does not price.
    const stillPolled = new Set(polledSet().map(keyOf));
    let taken = 0;
    for (const quote of result.quotes) {
      const key = keyOf(quote);
      if (!stillPolled.has(key) || (pending.get(key)?.delayMinutes === 0 && isLive())) continue;
      if (quote.prevClose !== null) prevCloses.set(key, quote.prevClose);
      pending.set(key, quote);
      taken++;
    }
    const failing = result.fresh === 0 && result.errors.length > 0;
    const changed = failing !== (fallbackFailing !== undefined);
    fallbackFailing = failing ? `${fallback.name}: ${result.errors[0]!.message}` : undefined;
    log.info(
      {
        fallback: fallback.name,
        instruments: instruments.length,
        quotes: taken,
        stale: result.stale,
        missing: result.missing,
        errors: result.errors.length,
        ...(result.errors.length > 0 ? { errorDetails: result.errors.slice(0, 5) } : {}),
        ...(due ? { afterClose: true } : {}),
        durationMs: now() - startedAt,
      },
      'fallback poll',
    );
    if (changed) await reportState();
  }

  async function flush(): Promise<void> {
    if (pending.size === 0) return;
    const quotes = [...pending.values()];
    pending.clear();
    const source = isLive() ? stream.name : fallback.name;
    for (let start = 0; start < quotes.length; start += MAX_QUOTES_PER_BATCH) {
      const batch: TickBatch = {
        v: 1,
        id: `${runStartedAt}-${++seq}`,
        at: Date.now(),
        source,
        quotes: quotes.slice(start, start + MAX_QUOTES_PER_BATCH),
      };
      await bus.publishBatch(batch);
    }
  }

  /** Runs `task` every `everyMs` while holding (first after `firstMs`); returns its stop. */
  function every(everyMs: number, what: string, task: () => Promise<void>, firstMs = everyMs) {
    return startPeriodicTask({ everyMs, firstMs, task, active: () => holding, now, log, what });
  }

  async function hold(): Promise<void> {
    if (holding || !running) return;
    holding = true;
    await stopping;
    if (!holding) return;
    streamState = { state: 'connecting' };
    abort = new AbortController();
    log.info({ stream: stream.name, fallback: fallback.name, batchMs }, 'holding the stream');
    try {
      await syncWatch();
    } catch (err) {
      log.error({ err }, 'watch set not read');
    }
    if (!holding) return;
    stream.start({ onQuote, onState, onUnsupported });
    tasks = [
      every(watchRefreshMs, 'watch set refresh', syncWatch),
      every(batchMs, 'tick batch', flush),
      every(stateRefreshMs, 'feed state', reportState),
      // The first poll waits one interval (a stream usually connects well before), unless some
      // instruments can only be polled.
      every(intervalMs, 'fallback poll', pollFallback, unsupported.length > 0 ? 0 : intervalMs),
    ];
  }

  function release(): Promise<void> {
    if (!holding) return stopping ?? Promise.resolve();
    holding = false;
    abort.abort();
    pending.clear();
    const stopped = tasks.map((stopTask) => stopTask());
    tasks = [];
    stopping = Promise.all([stream.stop(), ...stopped]).then(() => {
      stopping = undefined;
      watchedKeys = '';
    });
    log.info({ stream: stream.name }, 'stream released');
    return stopping;
  }

  return {
    start() {
      if (running) return;
      running = true;
      runStartedAt = now();
      seq = 0;
      if (!leader) {
        void hold();
        return;
      }
      unwatchLeader = leader.onChange((isLeader) => void (isLeader ? hold() : release()));
      leader.start();
      if (leader.isLeader()) void hold();
    },
    async stop() {
      running = false;
      unwatchLeader?.();
      await release();
      await leader?.stop();
    },
    setCredentials(credentials) {
      stream.setCredentials(credentials);
    },
  };
}
