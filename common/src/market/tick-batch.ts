/**
 * The tick-batch contract between the streamer and the servers (docs/live-prices.md).
 * One poll cycle = one batch = one message on the `ticks` channel. Validated at both ends.
 */
import { z } from 'zod';
import { EXCHANGES, type Exchange } from '../instruments/types.ts';

export const exchangeSchema = z.enum(EXCHANGES);

export const quoteSchema = z.object({
  symbol: z.string().min(1).max(40),
  exchange: exchangeSchema,
  /** Last traded price, rupees. */
  ltp: z.number().positive().finite(),
  prevClose: z.number().positive().finite().nullable(),
  change: z.number().finite().nullable(),
  changePercent: z.number().finite().nullable(),
  /** When the exchange printed this price (epoch ms). */
  asOf: z.number().int().nonnegative(),
  /**
   * How many minutes the source delays its prices (Yahoo: 15 for NSE/BSE). Absent in batches
   * from older streamers: 0.
   */
  delayMinutes: z.number().int().nonnegative().max(1440).default(0),
  /**
   * Not a fresh price: the provider could not refresh it this cycle, or its exchange time is
   * older than its delay allows (`quote-freshness.ts`). This is the last known price.
   */
  stale: z.boolean().optional(),
  /**
   * The provider has not priced this instrument for several cycles (delisted, suspended, or
   * unknown to it): it is polled only rarely, and this is its last known price.
   */
  unavailable: z.boolean().optional(),
});
/** A quote as consumers read it (`delayMinutes` filled in). */
export type Quote = z.infer<typeof quoteSchema>;

/** Most quotes one batch message carries; a larger watch set is published as several batches. */
export const MAX_QUOTES_PER_BATCH = 20_000;

/** A batch's fields around its quotes, checked before each quote is checked on its own. */
export const tickBatchEnvelopeSchema = z.object({
  v: z.literal(1),
  /** Monotonic per streamer run: `${startedAt}-${sequence}`. */
  id: z.string().min(1).max(100),
  /** Publish time (epoch ms): latency is measured from here. */
  at: z.number().int().nonnegative(),
  source: z.string().min(1).max(40),
  quotes: z.array(z.unknown()).max(MAX_QUOTES_PER_BATCH),
});

export const tickBatchSchema = tickBatchEnvelopeSchema.extend({
  quotes: z.array(quoteSchema).max(MAX_QUOTES_PER_BATCH),
});
export type TickBatch = z.infer<typeof tickBatchSchema>;

/** `NSE:RELIANCE`: the key of an instrument in the watch set. */
export function instrumentKey(exchange: string, symbol: string): string {
  return `${exchange}:${symbol}`;
}

/** The exchange and symbol of an {@link instrumentKey}; undefined for anything else. */
export function parseInstrumentKey(key: string): { exchange: Exchange; symbol: string } | undefined {
  const [name, symbol] = key.split(':');
  const exchange = EXCHANGES.find((known) => known === name);
  return exchange && symbol ? { exchange, symbol } : undefined;
}

/** Redis names shared by every process. */
export const MARKET_KEYS = {
  ticksChannel: 'market:ticks',
  watchSet: 'market:watch',
  /** Hash beside the watch set: instrument key → the price a simulated market starts it from. */
  watchReference: 'market:watch:ref',
  /** Hash beside the watch set: BSE instrument key → its scrip code (how Yahoo names it). */
  watchScripCodes: 'market:watch:scrip',
  /** Hash beside the watch set: instrument key → its ISIN (how Upstox keys it: `NSE_EQ|<ISIN>`). */
  watchIsins: 'market:watch:isin',
  leaderLock: 'market:streamer:leader',
  /** The streamer's feed state (`feed-state.ts`), rewritten while it runs, expiring when it stops. */
  feedState: 'market:feed:state',
  /**
   * The feed's credentials (`feed-credentials.ts`): a live broker token, expiring with it; a
   * notice on the channel of the same name follows every change.
   */
  feedCredentials: 'market:feed:credentials',
} as const;
