/**
 * What every tab is told about the market feed as a whole, whatever it holds: which source
 * prices come from and how current the newest price is. The header's market state is judged
 * from this and the calendar, so a new user and a user with holdings read the same words at the
 * same minute (`client/src/live/marketState.ts`).
 */
import type { TickBatch } from './tick-batch.ts';

/** The quote sources a streamer can run (`QUOTE_PROVIDER`). */
export type QuoteSource = 'simulated' | 'replay' | 'yahoo';

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

/** The feed after `batch`: its source, and its newest price's time and delay when it is newer. */
export function feedAfterBatch(feed: MarketFeed, batch: Pick<TickBatch, 'source' | 'quotes'>): MarketFeed {
  let next: MarketFeed = { ...feed, source: batch.source };
  for (const quote of batch.quotes) {
    if (quote.stale) continue;
    if (next.asOf === null || quote.asOf > next.asOf) {
      next = { ...next, asOf: quote.asOf, delayMinutes: quote.delayMinutes };
    }
  }
  return next;
}
