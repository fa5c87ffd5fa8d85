/**
 * The ATR an ATR stop is set from (docs/exit-rules.md, "ATR stops and the backtest"): Wilder's
 * ATR(n) over the instrument's split- and bonus-adjusted bars of the last ATR_LOOKBACK_DAYS,
 * up to the previous trading day (never the day still trading). Creating a rule and the nightly
 * recomputation (atr-nightly.ts) both read this window, so they agree to the paisa.
 */
import { adjustBars } from '@app/common/history/adjust';
import { atrBefore } from '@app/common/history/atr-stop';
import { NotEnoughHistoryError, type DailyBar } from '@app/common/history/bars';
import type { Exchange } from '@app/common/instruments/types';
import type { Executor } from '../db/client.ts';
import { adjustmentsOf, companyOf, type Listings } from './bars.ts';
import { readBars, type StoredBar } from './store.ts';

/** Calendar days of bars an ATR is computed over: about 250 trading days, room for ATR(100). */
export const ATR_LOOKBACK_DAYS = 366;

/** `date` (`YYYY-MM-DD`) moved by `days`. */
export function shiftDate(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Stored bars as numbers. */
export function barsOf(stored: readonly StoredBar[]): DailyBar[] {
  return stored.map((b) => ({
    date: b.date,
    open: Number(b.open),
    high: Number(b.high),
    low: Number(b.low),
    close: Number(b.close),
    volume: Number(b.volume),
  }));
}

/** An ATR and the day of the last bar it includes, or the trading days still missing. */
export type AtrAt = { atr: number; asOf: string } | { missingDays: number };

/** Where an ATR is worked out from: the store, and the master that names a company's listings. */
export interface AtrSource {
  db: Executor;
  instruments: Listings;
}

/**
 * ATR(n) of one instrument on `today` (from the bars before it), adjusted for the bonuses and
 * splits of any listing of its company, as the bars API and the backtest adjust them.
 */
export async function atrOf(
  source: AtrSource,
  q: { exchange: Exchange; symbol: string; period: number },
  today: string,
): Promise<AtrAt> {
  const stored = await readBars(source.db, {
    exchange: q.exchange,
    symbol: q.symbol,
    from: shiftDate(today, -ATR_LOOKBACK_DAYS),
    to: shiftDate(today, -1),
  });
  const company = companyOf(source.instruments, q);
  const bars = adjustBars(barsOf(stored), (await adjustmentsOf(source.db, company, today))(company));
  try {
    return atrBefore(bars, q.period, today);
  } catch (err) {
    if (err instanceof NotEnoughHistoryError) return { missingDays: err.days };
    throw err;
  }
}
