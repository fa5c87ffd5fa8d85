/**
 * POST /api/position-rules/backtest's service: a rule replayed on one instrument's adjusted daily
 * bars from the store (docs/exit-rules.md, "ATR stops and the backtest"). For an ATR stop the
 * bars start early enough for the warm-up the backtest wants (about 4.5 × n days).
 */
import { backtestRuleOf, type ApiBacktest, type BacktestInput } from '@app/common/api/backtest';
import { backtestRule } from '@app/common/history/backtest';
import { NotEnoughHistoryError } from '@app/common/history/bars';
import { istDateOf } from '@app/common/market/calendar';
import type { Executor } from '../db/client.ts';
import { Unprocessable } from '../http/errors.ts';
import type { InstrumentMaster } from '../instruments/master.ts';
import { loadAdjustedBars } from './bars.ts';

/** Trading days of warm-up per day of the ATR's period, and calendar days per trading day (with margin). */
const WARM_UP_PER_PERIOD_DAY = 4.5;
const CALENDAR_PER_TRADING_DAY = 1.5;

/** `date` (`YYYY-MM-DD`) less `years` years and `days` days. */
function before(date: string, years: number, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

/**
 * Backtests the rule over the last `years` years of the instrument's bars. NotFound for an
 * instrument the master does not list; Unprocessable ("Needs N more days of history") when the
 * store holds too few bars, or none ("No price history for INFY yet").
 */
export async function backtestHolding(
  deps: { db: Executor; instruments: Pick<InstrumentMaster, 'listingsOf'> },
  input: BacktestInput,
  now = new Date(),
): Promise<ApiBacktest> {
  const rule = backtestRuleOf(input);
  const to = istDateOf(now);
  const warmUp = rule.valueType === 'ATR' ? Math.ceil(rule.atrPeriod * WARM_UP_PER_PERIOD_DAY) : 0;
  const from = before(to, input.years, Math.ceil(warmUp * CALENDAR_PER_TRADING_DAY) + 7);
  const bars = await loadAdjustedBars(
    deps,
    { symbol: input.symbol, exchange: input.exchange, from, to },
    now,
  );
  if (bars.length === 0) throw new Unprocessable(`No price history for ${input.symbol} yet`);
  try {
    return backtestRule(bars, rule, { years: input.years });
  } catch (err) {
    if (err instanceof NotEnoughHistoryError) throw new Unprocessable(err.message);
    throw err;
  }
}
