/**
 * True range and Wilder's average true range (docs/exit-rules.md, "ATR stops and the backtest").
 * Pure and linear: one pass over the bars, no copies.
 */
import type { DailyBar } from './bars.ts';

/**
 * The day's true range: max(high, previous close) − min(low, previous close), which counts an
 * overnight gap; the first bar, without a previous close, is its high − low.
 */
export function trueRange(bar: DailyBar, previousClose: number | undefined): number {
  if (previousClose === undefined) return bar.high - bar.low;
  return Math.max(bar.high, previousClose) - Math.min(bar.low, previousClose);
}

/**
 * Wilder's ATR(n), aligned with `bars`: undefined for the first n − 1 bars; at bar n − 1 the mean
 * of the first n true ranges (the first bar's being its high − low); then
 * ATR_t = (ATR_{t−1}·(n − 1) + TR_t) / n. Each value uses only its own bar and the ones before.
 */
export function wilderAtr(bars: readonly DailyBar[], n: number): Array<number | undefined> {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`ATR period must be a whole number ≥ 1, not ${n}`);
  const atr = new Array<number | undefined>(bars.length).fill(undefined);
  let sum = 0;
  let previous = 0;
  for (let i = 0; i < bars.length; i++) {
    const tr = trueRange(bars[i]!, i === 0 ? undefined : bars[i - 1]!.close);
    if (i < n) {
      sum += tr;
      if (i === n - 1) previous = atr[i] = sum / n;
    } else {
      previous = atr[i] = (previous * (n - 1) + tr) / n;
    }
  }
  return atr;
}
