/**
 * ATR stops (issue #33; docs/exit-rules.md, "ATR stops and the backtest"): a fixed ATR stop sits
 * k × ATR below its reference at arming; a trailing one (the chandelier exit) k × ATR below the
 * highest close since arming and never moves down. Recomputed once a day, after the close, from
 * the bars up to that day: never from the day still trading.
 */
import { formatInr } from '../format/money.ts';
import { round2 } from '../portfolio/position-math.ts';
import { NotEnoughHistoryError, type DailyBar } from './bars.ts';
import { wilderAtr } from './atr.ts';

/** k × ATR below `base` (the reference, or the highest close), to the paisa. */
export function atrStopLevel(base: number, atr: number, multiple: number): number {
  return round2(base - multiple * atr);
}

/**
 * The chandelier's level after a day's close: k × ATR below the highest close since arming,
 * but never below `previous` (the level it had), so a wider ATR or a fall never lowers it.
 */
export function raiseAtrStop(
  previous: number | null,
  peakClose: number,
  atr: number,
  multiple: number,
): number {
  const candidate = atrStopLevel(peakClose, atr, multiple);
  return previous === null || candidate > previous ? candidate : previous;
}

/**
 * The ATR(n) a stop uses on `today` (`YYYY-MM-DD`): from the bars dated before it only, so a
 * bar of the day still trading never moves a level. Throws {@link NotEnoughHistoryError} with the
 * number of days missing when fewer than n such bars exist.
 */
export function atrBefore(
  bars: readonly DailyBar[],
  n: number,
  today: string,
): { atr: number; asOf: string } {
  let last = bars.length - 1;
  while (last >= 0 && bars[last]!.date >= today) last--;
  if (last + 1 < n) throw new NotEnoughHistoryError(n - (last + 1));
  const atr = wilderAtr(bars, n)[last]!;
  return { atr, asOf: bars[last]!.date };
}

export interface AtrStopReasonInput {
  multiple: number;
  period: number;
  atr: number;
  /** The highest close since arming (trailing), or the reference at arming (fixed). */
  base: number;
  trailing: boolean;
}

/**
 * Why the level is where it is, in rupees: '3 × ATR(22) = ₹84.20 below the high of ₹2,520.00'
 * (trailing), '… below the price of ₹2,500.00 when it was set' (fixed).
 */
export function atrStopReason(input: AtrStopReasonInput): string {
  const distance = formatInr(round2(input.multiple * input.atr));
  const from = input.trailing
    ? `the high of ${formatInr(input.base)}`
    : `the price of ${formatInr(input.base)} when it was set`;
  return `${Number(input.multiple.toFixed(2))} × ATR(${input.period}) = ${distance} below ${from}`;
}
