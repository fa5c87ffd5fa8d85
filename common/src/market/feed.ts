/**
 * What every tab is told about the market feed as a whole, whatever it holds: which source
 * prices come from and how current the newest price is. The header's market state is judged
 * from this and the calendar, so a new user and a user with holdings read the same words at the
 * same minute (`client/src/live/marketState.ts`).
 */
import type { TickBatch } from './tick-batch.ts';

/** The quote sources a streamer can run (`QUOTE_PROVIDER`). */
export type QuoteSource = 'simulated' | 'replay' | 'yahoo' | 'kite' | 'upstox' | 'angelone' | 'dhan';

export interface MarketFeed {
  /** The provider that priced the newest batch (before any batch: the one configured). */
  source: string;
  /** Exchange time of the newest price seen (epoch ms), or null before any. */
  asOf: number | null;
  /** The delay of that price's source, minutes (Yahoo on NSE/BSE: 15). */
  delayMinutes: number;
}

/** True when the feed's prices are made up (the demo market), not an exchange's. */
export function isSimulatedFeed(feed: Pick<MarketFeed, 'source'>): boolean {
  return feed.source === 'simulated';
}

/**
 * The feed after `batch`: its source, and its newest price's time and delay when it is newer.
 * A batch from another source (a broker's stream falling back to Yahoo, or back) starts over
 * from its own newest price, so the header follows the source in force, not the last stream tick.
 */
export function feedAfterBatch(feed: MarketFeed, batch: Pick<TickBatch, 'source' | 'quotes'>): MarketFeed {
  const switched = batch.source !== feed.source && batch.quotes.some((q) => !q.stale);
  let next: MarketFeed = switched
    ? { source: batch.source, asOf: null, delayMinutes: 0 }
    : { ...feed, source: batch.source };
  for (const quote of batch.quotes) {
    if (quote.stale) continue;
    if (next.asOf === null || quote.asOf > next.asOf) {
      next = { ...next, asOf: quote.asOf, delayMinutes: quote.delayMinutes };
    }
  }
  return next;
}
