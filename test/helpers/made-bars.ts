/**
 * Daily bars made for a test, written into the store as the bhavcopy loader writes them: one
 * `[open, high, low, close]` a trading day, ending on the last weekday before today (IST), so a
 * 1-year backtest's window holds them all.
 */
import type { Exchange } from '../../common/src/instruments/types.ts';
import { istDateOf } from '../../common/src/market/calendar.ts';
import type { Executor } from '../../server/src/db/client.ts';
import { dailyBars } from '../../server/src/db/schema.ts';

export type MadeBar = [open: number, high: number, low: number, close: number];

/** `count` weekdays (`YYYY-MM-DD`), oldest first, the last one the weekday before today. */
export function madeTradingDays(count: number, now = new Date()): string[] {
  const day = new Date(`${istDateOf(now)}T00:00:00Z`);
  const days: string[] = [];
  while (days.length < count) {
    day.setUTCDate(day.getUTCDate() - 1);
    if (day.getUTCDay() % 6 !== 0) days.push(day.toISOString().slice(0, 10));
  }
  return days.reverse();
}

/** `bars` as stored rows of the NSE `symbol`, on the weekdays before today, oldest first. */
export function madeBarRows(symbol: string, bars: readonly MadeBar[]) {
  const dates = madeTradingDays(bars.length);
  return bars.map(([open, high, low, close], i) => ({
    exchange: 'NSE' as const,
    symbol,
    date: dates[i]!,
    open: String(open),
    high: String(high),
    low: String(low),
    close: String(close),
    volume: 1000,
    source: 'made.csv',
  }));
}

/** Stores `bars` for the NSE `symbol` on consecutive trading days; answers their dates. */
export async function storeMadeBars(
  db: Executor,
  symbol: string,
  bars: readonly MadeBar[],
): Promise<string[]> {
  const rows = madeBarRows(symbol, bars);
  await db.insert(dailyBars).values(rows);
  return rows.map((r) => r.date);
}

/**
 * Stores `days` bars of `symbol` (on NSE unless told), one per calendar day ending `last`
 * (`YYYY-MM-DD`), each opening and closing at `close` and trading `range` (₹10 unless told)
 * either side of it: its true range is twice `range`, and so is the ATR of any period over them.
 */
export async function storeSteadyBars(
  db: Executor,
  symbol: string,
  o: { last: string; days: number; close: number; range?: number; exchange?: Exchange },
): Promise<void> {
  const range = o.range ?? 10;
  const last = new Date(`${o.last}T00:00:00Z`);
  await db.insert(dailyBars).values(
    Array.from({ length: o.days }, (_, i) => {
      const date = new Date(last);
      date.setUTCDate(date.getUTCDate() + i - o.days + 1);
      return {
        exchange: o.exchange ?? 'NSE',
        symbol,
        date: date.toISOString().slice(0, 10),
        open: String(o.close),
        high: String(o.close + range),
        low: String(o.close - range),
        close: String(o.close),
        volume: 1000,
        source: 'made.csv',
      };
    }),
  );
}
