/**
 * The quote-provider interface (STYLE 10). A provider answers one request for at most
 * `maxSymbolsPerRequest` instruments; chunking, back-off, retries and the stale-quote cache
 * live in `../poll.ts`, never in a provider.
 */
import type { Exchange } from '@app/common/instruments/types';
import type { Quote } from '@app/common/market/tick-batch';
import type { MarketCalendar } from '@app/common/market/calendar';

/** An instrument to quote, as held in the watch set. */
export interface WatchedInstrument {
  symbol: string;
  exchange: Exchange;
  /**
   * Its holders' average buy price, when someone holds it: where the simulated market starts
   * an instrument it has no price level of its own for. Real feeds ignore it.
   */
  referencePrice?: number;
  /** BSE's six-digit scrip code, when the symbol master knows it (Yahoo's `500325.BO`). */
  scripCode?: string;
  /** Its ISIN, when the symbol master knows it: Upstox's feed keys instruments by it. */
  isin?: string;
}

/** A source of quotes, one request at a time. */
export interface QuoteProvider {
  /** Short name, published as the tick batch's `source`. */
  readonly name: string;
  /** The largest number of instruments one `getQuotes` call may ask for. */
  readonly maxSymbolsPerRequest: number;
  /**
   * Quotes for the instruments it could price; an instrument missing from the answer is served
   * stale by the poller. Throws a `QuoteProviderError` when the whole request failed.
   */
  getQuotes(instruments: readonly WatchedInstrument[]): Promise<Quote[]>;
  /**
   * The exchange hours its prices follow (real feeds): the streamer then polls only while the
   * market is open, plus once after the close. Absent: prices tick around the clock.
   */
  readonly calendar?: MarketCalendar;
  /**
   * How many minutes its prices lag the exchange, as documented (Yahoo on NSE/BSE: 15); each
   * quote still carries its own. Absent: 0. What `GET /api/market/feed` says before any quote.
   */
  readonly delayMinutes?: number;
  /**
   * A scripted source (replay) that decides itself what to publish: called once per cycle with
   * the whole watch set, even an empty one, and its answer is published as is.
   */
  readonly ignoresWatchSet?: boolean;
}

/** Options of a failed provider request. */
export interface QuoteProviderErrorOptions {
  /** HTTP status of the answer, when there was one. */
  status?: number;
  /** Worth trying again later: rate limit (429), server error (5xx), network failure or timeout. */
  retryable: boolean;
  /** The provider asked us to wait this long (HTTP Retry-After). */
  retryAfterMs?: number;
  cause?: unknown;
}

/** A provider request that failed as a whole; the poller decides on back-off from its fields. */
export class QuoteProviderError extends Error {
  readonly status?: number;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;

  constructor(message: string, options: QuoteProviderErrorOptions) {
    super(message, { cause: options.cause });
    this.name = 'QuoteProviderError';
    this.status = options.status;
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
  }
}
