/**
 * The backtest in one line, as the rule dialogs show it (docs/exit-rules.md, "ATR stops and the
 * backtest"): "Over 3 years: fired 4 times, 3 whipsaws; the stop's result -8.1% against
 * holding +22.4%".
 */
import { formatIstDate } from '../format/ist.ts';
import { formatPercent } from '../format/percent.ts';
import type { BacktestResult } from './backtest.ts';

/** Days of slack before a window counts as shorter than the years asked (holidays at its start). */
const FULL_WINDOW_SLACK_DAYS = 10;

/** "Over 3 years", or "Since 04/03/2026" when the store's history is shorter than asked. */
function span(result: Pick<BacktestResult, 'from' | 'to'>, years: number): string {
  const start = new Date(`${result.to}T00:00:00Z`);
  start.setUTCFullYear(start.getUTCFullYear() - years);
  start.setUTCDate(start.getUTCDate() + FULL_WINDOW_SLACK_DAYS);
  if (result.from > start.toISOString().slice(0, 10))
    return `Since ${formatIstDate(`${result.from}T12:00:00Z`)}`;
  return `Over ${years} ${years === 1 ? 'year' : 'years'}`;
}

const times = (n: number) => (n === 0 ? 'never fired' : n === 1 ? 'fired once' : `fired ${n} times`);
const whipsaws = (n: number) => (n === 0 ? 'no whipsaws' : n === 1 ? '1 whipsaw' : `${n} whipsaws`);
const signed = (percent: number) => formatPercent(percent, { signed: true, fractionDigits: 1 });

/** The backtest's line; `stop`: the rule fires below (a stop loss), so whipsaws are counted. */
export function backtestSentence(
  result: Pick<
    BacktestResult,
    'from' | 'to' | 'fired' | 'whipsaws' | 'rule_return_percent' | 'hold_return_percent'
  >,
  options: { years: number; stop: boolean },
): string {
  const count = result.fired.length;
  const fired = options.stop && count > 0 ? `${times(count)}, ${whipsaws(result.whipsaws)}` : times(count);
  const noun = options.stop ? 'stop' : 'target';
  return (
    `${span(result, options.years)}: ${fired}; the ${noun}'s result ${signed(result.rule_return_percent)}` +
    ` against holding ${signed(result.hold_return_percent)}`
  );
}
