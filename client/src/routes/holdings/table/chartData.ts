/** Chart series for a holding (pure, unit-tested): server bars followed by newer live prices. */
import type { PricePoint } from '../../../live/quoteStore.ts';

/** `GET /api/market/chart/:exchange/:symbol`. */
export interface ChartResponse {
  interval: '1m' | '1d';
  bars: { t: number; close: number }[];
  prev_close: number | null;
}

export interface ChartPoint {
  t: number;
  price: number;
}

/** How long one bar of each interval covers. */
export const BAR_MS = { '1m': 60_000, '1d': 86_400_000 } as const;

/**
 * The server's bars up to the first live price, then the live prices. A bar whose period
 * holds the first live price is left out (its close may be later than that price), so the
 * line never goes back in time. Without bars (the call failed) the live prices alone.
 */
export function mergeChartSeries(
  bars: readonly ChartResponse['bars'][number][],
  live: readonly PricePoint[],
  barMs: number = BAR_MS['1m'],
): ChartPoint[] {
  const firstLive = live[0]?.t ?? Number.POSITIVE_INFINITY;
  const points: ChartPoint[] = bars
    .filter((bar) => bar.t + barMs <= firstLive)
    .map((bar) => ({ t: bar.t, price: bar.close }));
  for (const point of live) points.push({ t: point.t, price: point.ltp });
  return points;
}
