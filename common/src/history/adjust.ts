/**
 * Split and bonus adjustment of daily bars (docs/history.md#adjustment). The store keeps the
 * exchange's own prices; every reader (GET /api/market/bars, the backtest) adjusts them here, so
 * a later bonus or split never forces a reload. Pure.
 */
import type { DailyBar } from './bars.ts';

/** A bonus or split: prices before `exDate` are divided by `ratio`, volumes multiplied (1:1 bonus → 2). */
export interface PriceAdjustment {
  exDate: string;
  ratio: number;
}

/** Four decimals, as the store keeps prices: 10.05 / 2 is 5.025, not 5.03. */
const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * The bars (in date order) as they compare with today's prices: each bar dated before an
 * ex-date has its prices divided by that action's ratio and its volume multiplied by it; bars
 * on or after the ex-date are left as printed. Several actions compound.
 */
export function adjustBars(bars: readonly DailyBar[], adjustments: readonly PriceAdjustment[]): DailyBar[] {
  const actions = adjustments.filter((a) => a.ratio > 0 && a.ratio !== 1);
  if (actions.length === 0) return bars.map((b) => ({ ...b }));
  const byDate = [...actions].sort((a, b) => a.exDate.localeCompare(b.exDate));
  const out = new Array<DailyBar>(bars.length);
  let factor = 1;
  let next = byDate.length - 1;
  for (let i = bars.length - 1; i >= 0; i--) {
    const bar = bars[i]!;
    while (next >= 0 && byDate[next]!.exDate > bar.date) factor *= byDate[next--]!.ratio;
    out[i] =
      factor === 1
        ? { ...bar }
        : {
            date: bar.date,
            open: round4(bar.open / factor),
            high: round4(bar.high / factor),
            low: round4(bar.low / factor),
            close: round4(bar.close / factor),
            volume: Math.round(bar.volume * factor),
          };
  }
  return out;
}
