/**
 * The price chart of an instrument (docs/live-prices.md, Price chart): which bars a retail investor
 * expects to see, chosen from what the tick batches stored.
 *
 * The rule: today's minute bars (`1m`) as soon as today (IST) has any, that is while the market
 * is open and for the rest of a trading day after the close, when "how did it go today" is the
 * question; the demo market, which ticks around the clock, shows its session the same way.
 * Otherwise (before the open, on a weekend or an exchange holiday, or before the first tick of
 * a new instrument) the last 30 daily closes (`1d`): the trend up to the last session's close.
 * Real feeds poll only in market hours (plus once after the close, stamped with the exchange's
 * time), so a closed day never has minute bars of its own.
 */
import type { Exchange } from '@app/common/instruments/types';
import { and, asc, desc, eq, gte } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { priceBars, quotes } from '../db/schema.ts';
import { istDayStart } from './ingest.ts';

/** Daily closes shown when today has no minute bars. */
export const DAILY_CLOSES = 30;

/** `GET /api/market/chart/:exchange/:symbol`, as sent. */
export interface PriceChart {
  symbol: string;
  exchange: Exchange;
  interval: '1m' | '1d';
  /** Oldest first; `t` is the bar's start (epoch ms), `close` its last price. */
  bars: { t: number; close: number }[];
  prev_close: number | null;
}

/** Loads the chart of one instrument at `now` (see the module comment for the rule). */
export async function loadPriceChart(input: {
  db: Executor;
  exchange: Exchange;
  symbol: string;
  now: number;
}): Promise<PriceChart> {
  const { db, exchange, symbol } = input;
  const instrument = and(eq(priceBars.exchange, exchange), eq(priceBars.symbol, symbol));
  const bar = { t: priceBars.bucket, close: priceBars.close };
  const minutes = await db
    .select(bar)
    .from(priceBars)
    .where(and(instrument, eq(priceBars.interval, '1m'), gte(priceBars.bucket, istDayStart(input.now))))
    .orderBy(asc(priceBars.bucket));
  const interval = minutes.length > 0 ? '1m' : '1d';
  const bars =
    interval === '1m'
      ? minutes
      : (
          await db
            .select(bar)
            .from(priceBars)
            .where(and(instrument, eq(priceBars.interval, '1d')))
            .orderBy(desc(priceBars.bucket))
            .limit(DAILY_CLOSES)
        ).reverse();
  const [latest] = await db
    .select({ prevClose: quotes.prevClose })
    .from(quotes)
    .where(and(eq(quotes.exchange, exchange), eq(quotes.symbol, symbol)));
  return {
    symbol,
    exchange,
    interval,
    bars: bars.map((b) => ({ t: b.t.getTime(), close: Number(b.close) })),
    prev_close: latest?.prevClose ? Number(latest.prevClose) : null,
  };
}
