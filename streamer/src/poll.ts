/**
 * The one place that turns a watch set into provider requests (STYLE 10): chunks of
 * `maxSymbolsPerRequest`, retries with exponential back-off and jitter (capped, honouring
 * Retry-After) on retryable failures, and a cache of each instrument's last fresh quote, served
 * with `stale: true` when the provider left it out or its request failed.
 *
 * The back-off gate is shared by every chunk and every cycle: after a failure no request is made
 * before the gate opens. A cycle waits for the gate only up to `maxWaitMs`; beyond that the
 * remaining instruments are served stale and the next cycle tries again.
 *
 * Two judgements on what the provider answers, made here once for every provider:
 * - a quote older by its own exchange time than its delay plus two intervals is served
 *   `stale: true` while the market is open (`common/src/market/quote-freshness.ts`);
 * - an instrument left out of `unavailableAfter` successful answers in a row (delisted,
 *   suspended, unknown to the provider) is `unavailable`: its last price is served marked so, and
 *   it is asked for again only every `recheckMs`, until an answer includes it.
 */
import type { MarketCalendar } from '@app/common/market/calendar';
import { isQuoteTooOld } from '@app/common/market/quote-freshness';
import { instrumentKey, type Quote } from '@app/common/market/tick-batch';
import { QuoteProviderError, type QuoteProvider, type WatchedInstrument } from './providers/types.ts';

/** Tuning of retries and back-off (defaults suit a 60 s interval). */
export interface BackoffOptions {
  /** Delay after the first failure (default 1 s); doubles with each further failure. */
  baseMs?: number;
  /** Longest computed delay (default 5 min). A longer Retry-After is still honoured (up to 1 h). */
  capMs?: number;
  /** Requests per chunk within one cycle (default 3). */
  maxAttempts?: number;
  /** Longest wait for the gate inside one cycle (default 5 s). */
  maxWaitMs?: number;
}

/** When an instrument the provider keeps leaving out is given up on, and asked for again. */
export interface UnavailableOptions {
  /** Successful answers in a row without it (default 3). */
  afterCycles?: number;
  /** How often it is asked for once unavailable (default 1 h). */
  recheckMs?: number;
}

/** What a poller needs. */
export interface PollerDeps {
  provider: QuoteProvider;
  backoff?: BackoffOptions;
  /** The poll interval (default 60 s): a quote may lag its delay by two of them. */
  intervalMs?: number;
  /** Exchange hours (default: the provider's): quotes are judged too old only while open. */
  calendar?: MarketCalendar;
  unavailable?: UnavailableOptions;
  /** Injected for tests: the clock and the randomness of the jitter. */
  now?: () => number;
  random?: () => number;
}

/** One failed provider request, as logged. */
export interface PollError {
  message: string;
  status?: number;
  retryable: boolean;
}

/** The outcome of one poll over the watch set. */
export interface PollResult {
  /** Fresh quotes, then stale ones (last known price), one per instrument at most. */
  quotes: Quote[];
  fresh: number;
  stale: number;
  /** Instruments with neither a fresh nor a cached quote. */
  missing: number;
  /** Instruments marked unavailable (left out of several answers in a row). */
  unavailable: number;
  /** Quotes the provider gave whose exchange time was too old for their delay (served stale). */
  tooOld: number;
  /** Provider calls made. */
  requests: number;
  errors: PollError[];
  /** Set when the gate is closed at the end of the cycle: when requests may resume (epoch ms). */
  backoffUntil?: number;
}

/** Polls one provider, keeping its back-off state and stale cache between cycles. */
export interface QuotePoller {
  /** Quotes for the instruments; never throws for provider failures (they land in `errors`). */
  poll(instruments: readonly WatchedInstrument[], signal?: AbortSignal): Promise<PollResult>;
}

const MAX_RETRY_AFTER_MS = 3_600_000;

interface ChunkOutcome {
  quotes?: Quote[];
  giveUp: boolean;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

function describe(err: unknown): PollError {
  if (err instanceof QuoteProviderError) {
    return { message: err.message, status: err.status, retryable: err.retryable };
  }
  return { message: err instanceof Error ? err.message : String(err), retryable: false };
}

function chunked<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** Creates a poller for one provider; its cache and back-off state live as long as it does. */
export function createQuotePoller(deps: PollerDeps): QuotePoller {
  const { provider } = deps;
  const baseMs = deps.backoff?.baseMs ?? 1000;
  const capMs = deps.backoff?.capMs ?? 300_000;
  const maxAttempts = Math.max(1, deps.backoff?.maxAttempts ?? 3);
  const maxWaitMs = deps.backoff?.maxWaitMs ?? 5000;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const calendar = deps.calendar ?? provider.calendar;
  const graceMs = 2 * (deps.intervalMs ?? 60_000);
  const unavailableAfter = Math.max(1, deps.unavailable?.afterCycles ?? 3);
  const recheckMs = deps.unavailable?.recheckMs ?? 3_600_000;
  const lastFresh = new Map<string, Quote>();
  /** Successful answers in a row that left an instrument out. */
  const missedAnswers = new Map<string, number>();
  /** Unavailable instruments: when each may be asked for again (epoch ms). */
  const recheckAt = new Map<string, number>();
  let failures = 0;
  let gateOpensAt = 0;

  /** Exponential delay with "equal jitter": between half and all of base × 2^(failures−1), capped. */
  function nextDelay(err: QuoteProviderError): number {
    if (err.retryAfterMs !== undefined) return Math.min(err.retryAfterMs, MAX_RETRY_AFTER_MS);
    const exp = Math.min(capMs, baseMs * 2 ** (failures - 1));
    return Math.round(exp / 2 + random() * (exp / 2));
  }

  /**
   * One chunk's fresh quotes (none when it failed). `giveUp` when retrying is over for this
   * cycle (gate closed too long, attempts used up, stopping): later chunks are then not asked.
   */
  async function fetchChunk(
    chunk: WatchedInstrument[],
    result: PollResult,
    signal?: AbortSignal,
  ): Promise<ChunkOutcome> {
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const wait = gateOpensAt - now();
      if (wait > maxWaitMs) return { giveUp: true };
      if (wait > 0) await sleep(wait, signal);
      if (signal?.aborted) return { giveUp: true };
      result.requests++;
      try {
        const quotes = await provider.getQuotes(chunk);
        failures = 0;
        gateOpensAt = 0;
        return { quotes, giveUp: false };
      } catch (err) {
        result.errors.push(describe(err));
        if (!(err instanceof QuoteProviderError) || !err.retryable) return { giveUp: false };
        failures++;
        gateOpensAt = now() + nextDelay(err);
      }
    }
    return { giveUp: true };
  }

  /** The freshness context of this moment, or undefined while the market is shut. */
  function freshnessNow(): { now: number; graceMs: number; sessionOpenedAt?: number } | undefined {
    const at = now();
    if (!calendar) return { now: at, graceMs };
    if (!calendar.isMarketOpen(new Date(at))) return undefined;
    return {
      now: at,
      graceMs,
      sessionOpenedAt: calendar.nextOpen(calendar.lastClose(new Date(at))).getTime(),
    };
  }

  /** The provider answered without this instrument: counts towards `unavailable`. */
  function noteMissed(key: string) {
    const missed = (missedAnswers.get(key) ?? 0) + 1;
    missedAnswers.set(key, missed);
    if (missed >= unavailableAfter) recheckAt.set(key, now() + recheckMs);
  }

  /** The last price of an instrument not priced this cycle, marked as such (or nothing). */
  function lastKnown(key: string, result: PollResult, stale: Quote[]) {
    const last = lastFresh.get(key);
    const unavailable = recheckAt.has(key);
    if (last) stale.push(unavailable ? { ...last, stale: true, unavailable } : { ...last, stale: true });
    else result.missing++;
    if (unavailable) result.unavailable++;
  }

  function serve(
    chunk: WatchedInstrument[],
    quotes: Quote[] | undefined,
    result: PollResult,
    stale: Quote[],
  ) {
    const wanted = new Set(chunk.map((i) => instrumentKey(i.exchange, i.symbol)));
    const freshness = freshnessNow();
    for (const quote of quotes ?? []) {
      const key = instrumentKey(quote.exchange, quote.symbol);
      if (!wanted.delete(key)) continue;
      missedAnswers.delete(key);
      recheckAt.delete(key);
      lastFresh.set(key, quote);
      if (freshness && isQuoteTooOld(quote, freshness)) {
        result.quotes.push({ ...quote, stale: true });
        result.tooOld++;
      } else {
        result.quotes.push(quote);
        result.fresh++;
      }
    }
    for (const key of wanted) {
      // A failed request says nothing about the instrument; an answer without it does.
      if (quotes) noteMissed(key);
      lastKnown(key, result, stale);
    }
  }

  async function pollScripted(instruments: readonly WatchedInstrument[], result: PollResult) {
    result.requests++;
    try {
      result.quotes = await provider.getQuotes(instruments);
      result.fresh = result.quotes.length;
    } catch (err) {
      result.errors.push(describe(err));
    }
    return result;
  }

  return {
    async poll(instruments, signal) {
      const result: PollResult = {
        quotes: [],
        fresh: 0,
        stale: 0,
        missing: 0,
        unavailable: 0,
        tooOld: 0,
        requests: 0,
        errors: [],
      };
      if (provider.ignoresWatchSet) return pollScripted(instruments, result);
      const unique = [...new Map(instruments.map((i) => [instrumentKey(i.exchange, i.symbol), i])).values()];
      const stale: Quote[] = [];
      const at = now();
      const due = unique.filter((i) => (recheckAt.get(instrumentKey(i.exchange, i.symbol)) ?? 0) <= at);
      if (due.length < unique.length) {
        const dueKeys = new Set(due.map((i) => instrumentKey(i.exchange, i.symbol)));
        for (const i of unique) {
          const key = instrumentKey(i.exchange, i.symbol);
          if (!dueKeys.has(key)) lastKnown(key, result, stale);
        }
      }
      let givenUp = false;
      for (const chunk of chunked(due, Math.max(1, provider.maxSymbolsPerRequest))) {
        const outcome: ChunkOutcome = givenUp ? { giveUp: true } : await fetchChunk(chunk, result, signal);
        givenUp = outcome.giveUp;
        serve(chunk, outcome.quotes, result, stale);
      }
      result.quotes.push(...stale);
      result.stale = stale.length;
      if (gateOpensAt > now()) result.backoffUntil = gateOpensAt;
      return result;
    },
  };
}
