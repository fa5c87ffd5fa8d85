/**
 * "What would this rule have done": one exit rule on a holding's daily bars over 1, 3 or 5 years
 * (issue #33; the rules of the simulation in docs/exit-rules.md, "ATR stops and the backtest").
 * Pure and linear: one pass over the bars, no per-day copies.
 */
import { DEFAULT_REARM_PERCENT, rearmPrice } from '../rules/rearm.ts';
import { round2 } from '../portfolio/position-math.ts';
import { NotEnoughHistoryError, type DailyBar } from './bars.ts';
import { wilderAtr } from './atr.ts';
import { levelTracker, percentChange, type BacktestRule } from './backtest-level.ts';

export type { BacktestRule };

/** A firing: the day, the level it was tested against, the price it left at, and whether it gapped. */
export interface BacktestFiring {
  date: string;
  level: number;
  price: number;
  /** The day opened past the level: filled at the open, not at the level. */
  gapped: boolean;
}

export interface BacktestResult {
  /** The first day (in at its close) and the last. */
  from: string;
  to: string;
  fired: BacktestFiring[];
  /** Stop firings followed within 10 trading days by a close back above the level. */
  whipsaws: number;
  /** Trading days ending out of the stock (the day of an exit counts; the day of a return not). */
  days_out: number;
  rule_return_percent: number;
  hold_return_percent: number;
  /** The largest fall from a previous high of the value, in percent (a positive number). */
  rule_max_drawdown_percent: number;
  hold_max_drawdown_percent: number;
  /** Every day from `from`: its close and the level it was tested against (null when none). */
  series: Array<{ date: string; close: number; level: number | null }>;
}

/** Trading days after an exit in which a close back above its level makes it a whipsaw. */
export const WHIPSAW_DAYS = 10;

/**
 * Backtests `rule` over the last `years` years of `bars` (oldest first, adjusted). In at the
 * first close of the window with enough history (for an ATR kind, n bars); out at the level on a
 * day whose low reaches it, at the open when the day opened past it; the level tested on a day
 * comes only from the days before it; out until the end, or back in when a re-arming rule
 * re-arms (at its re-arm price, or the open past it). Throws {@link NotEnoughHistoryError}.
 * For an ATR kind, pass about 4.5 × n bars before the window too: Wilder's average forgets its
 * seed slowly, and with them the window's first days do not lean on it.
 */
export function backtestRule(
  bars: readonly DailyBar[],
  rule: BacktestRule,
  options: { years: number },
): BacktestResult {
  const period = rule.valueType === 'ATR' ? rule.atrPeriod : 0;
  const atr = period ? wilderAtr(bars, period) : [];
  const entry = Math.max(windowStart(bars, options.years), Math.max(period - 1, 0));
  if (entry + 1 >= bars.length) throw new NotEnoughHistoryError(entry + 2 - bars.length);

  const up = rule.triggerType === 'TAKE_PROFIT';
  const rearmPercent = rule.rearm === 'after_recovery' ? (rule.rearmPercent ?? DEFAULT_REARM_PERCENT) : null;
  const tracker = levelTracker(rule, bars, atr);
  const first = bars[entry]!;
  tracker.arm(entry, first.close);

  const fired: BacktestFiring[] = [];
  const firedAt: number[] = [];
  const series: BacktestResult['series'] = [{ date: first.date, close: first.close, level: null }];
  let shares = 1 / first.close;
  let cash = 0;
  let rearmAt: number | null = null;
  let daysOut = 0;
  const rule_dd = drawdown(1);
  const hold_dd = drawdown(first.close);

  for (let i = entry + 1; i < bars.length; i++) {
    const bar = bars[i]!;
    let tested: number | null = null;
    if (shares > 0) {
      const level = (tested = tracker.level);
      const gapped = up ? bar.open >= level : bar.open <= level;
      if (gapped || (up ? bar.high >= level : bar.low <= level)) {
        const price = gapped ? bar.open : level;
        fired.push({ date: bar.date, level, price, gapped });
        firedAt.push(i);
        cash = shares * price;
        shares = 0;
        rearmAt = rearmPercent === null ? null : rearmPrice(rule.triggerType, level, rearmPercent);
      } else {
        tracker.endOfDay(i);
      }
    } else if (rearmAt !== null) {
      const gapped = up ? bar.open <= rearmAt : bar.open >= rearmAt;
      if (gapped || (up ? bar.low <= rearmAt : bar.high >= rearmAt)) {
        const price = gapped ? bar.open : rearmAt;
        shares = cash / price;
        cash = 0;
        rearmAt = null;
        tracker.arm(i, price);
      }
    }
    if (shares === 0) daysOut++;
    rule_dd.add(shares > 0 ? shares * bar.close : cash);
    hold_dd.add(bar.close);
    series.push({ date: bar.date, close: bar.close, level: tested });
  }

  const last = bars[bars.length - 1]!;
  return {
    from: first.date,
    to: last.date,
    fired,
    whipsaws: up ? 0 : countWhipsaws(bars, fired, firedAt),
    days_out: daysOut,
    rule_return_percent: round2(((shares > 0 ? shares * last.close : cash) - 1) * 100),
    hold_return_percent: percentChange(first.close, last.close),
    rule_max_drawdown_percent: rule_dd.percent(),
    hold_max_drawdown_percent: hold_dd.percent(),
    series,
  };
}

/** The index of the first bar dated on or after the last bar's date less `years` years. */
function windowStart(bars: readonly DailyBar[], years: number): number {
  if (bars.length === 0) return 0;
  const last = bars[bars.length - 1]!.date;
  const from = `${String(Number(last.slice(0, 4)) - years).padStart(4, '0')}${last.slice(4)}`;
  let lo = 0;
  let hi = bars.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (bars[mid]!.date < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Firings of a stop followed within {@link WHIPSAW_DAYS} trading days by a close above the level. */
function countWhipsaws(
  bars: readonly DailyBar[],
  fired: readonly BacktestFiring[],
  firedAt: readonly number[],
): number {
  let count = 0;
  for (let f = 0; f < fired.length; f++) {
    const end = Math.min(firedAt[f]! + WHIPSAW_DAYS, bars.length - 1);
    for (let i = firedAt[f]! + 1; i <= end; i++) {
      if (bars[i]!.close > fired[f]!.level) {
        count++;
        break;
      }
    }
  }
  return count;
}

/** The largest fall from a running high, in percent, over values added one at a time. */
function drawdown(start: number) {
  let high = start;
  let worst = 0;
  return {
    add(value: number) {
      if (value > high) high = value;
      else if ((high - value) / high > worst) worst = (high - value) / high;
    },
    percent: () => round2(worst * 100),
  };
}
