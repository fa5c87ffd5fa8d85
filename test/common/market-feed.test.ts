/**
 * The feed every tab is told about (common/src/market/feed.ts): when a broker's stream falls back
 * to Yahoo and back, the header follows the source in force (Live, then Delayed 15 min, then Live)
 * instead of the last stream tick.
 */
import { feedAfterBatch, type MarketFeed } from '@app/common/market/feed';
import type { Quote } from '@app/common/market/tick-batch';
import { expect } from 'chai';
import { indicatorState } from '../../client/src/live/marketState.ts';

const quote = (asOf: number, delayMinutes: number, stale?: boolean): Quote => ({
  symbol: 'RELIANCE',
  exchange: 'NSE',
  ltp: 2500,
  prevClose: 2480,
  change: 20,
  changePercent: 0.81,
  asOf,
  delayMinutes,
  ...(stale ? { stale } : {}),
});

describe('market feed: the source in force', () => {
  // Wednesday 25 Nov 2026, 11:00 IST: the market is open.
  const now = Date.parse('2026-11-25T11:00:00+05:30');
  const header = (feed: MarketFeed) =>
    indicatorState('live', { asOf: feed.asOf!, delayMinutes: feed.delayMinutes }, now, feed.source).short;

  it('says Live while the stream prices, Delayed 15 min once Yahoo stands in, and Live again after', () => {
    let feed: MarketFeed = { source: 'kite', asOf: null, delayMinutes: 0 };
    feed = feedAfterBatch(feed, { source: 'kite', quotes: [quote(now - 1000, 0)] });
    expect(header(feed)).to.equal('Live');
    // The token is refused: Yahoo's prices, 15 minutes older than the last tick, are now in force.
    feed = feedAfterBatch(feed, { source: 'yahoo', quotes: [quote(now - 15 * 60_000, 15)] });
    expect(feed).to.deep.equal({ source: 'yahoo', asOf: now - 15 * 60_000, delayMinutes: 15 });
    expect(header(feed)).to.equal('Delayed 15 min');
    feed = feedAfterBatch(feed, { source: 'kite', quotes: [quote(now - 500, 0)] });
    expect(header(feed)).to.equal('Live');
  });

  it('keeps the newest price while one source goes on, and ignores a batch of stale prices', () => {
    let feed: MarketFeed = { source: 'kite', asOf: now - 1000, delayMinutes: 0 };
    // While live, instruments beyond the stream's limits arrive polled in the stream's batches.
    feed = feedAfterBatch(feed, { source: 'kite', quotes: [quote(now - 15 * 60_000, 15)] });
    expect(feed).to.deep.equal({ source: 'kite', asOf: now - 1000, delayMinutes: 0 });
    feed = feedAfterBatch(feed, { source: 'yahoo', quotes: [quote(now - 20 * 60_000, 15, true)] });
    expect(feed.asOf, 'only stale prices: nothing newer to go by').to.equal(now - 1000);
  });
});
