/** Chart series for a holding (pure, unit-tested): server bars followed by newer live prices. */
import { round2 } from '@app/common/portfolio/position-math';
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

/** The price axis: its range, its ticks and how many paise digits tell the ticks apart. */
export interface PriceAxis {
  domain: [number, number];
  ticks: number[];
  /** 0 for whole-rupee steps, else 2 (paise). */
  fractionDigits: 0 | 2;
}

/** Tick steps tried, per power of ten; the smallest step is one paisa. */
const NICE_STEPS = [1, 2, 2.5, 5, 10];
const PAISA = 0.01;

/**
 * About `target` evenly spaced ticks on round values covering the prices, at the precision
 * their step needs: whole rupees for a ₹50 range, paise for a ₹2 one (never "₹390" five times).
 * A flat series gets a small range around its price.
 */
export function priceAxis(prices: readonly number[], target = 5): PriceAxis {
  const finite = prices.filter(Number.isFinite);
  let low = finite.length ? Math.min(...finite) : 0;
  let high = finite.length ? Math.max(...finite) : 0;
  if (high - low < 4 * PAISA) {
    const middle = (low + high) / 2;
    low = middle - 2 * PAISA;
    high = middle + 2 * PAISA;
  }
  const rough = (high - low) / Math.max(1, target - 1);
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(PAISA, (NICE_STEPS.find((n) => n * magnitude >= rough) ?? 10) * magnitude);
  const start = Math.floor(low / step + 1e-9) * step;
  const end = Math.ceil(high / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let i = 0; start + i * step <= end + step / 1000; i++) ticks.push(round2(start + i * step));
  const whole = ticks.every((tick) => Number.isInteger(tick));
  return { domain: [ticks[0]!, ticks[ticks.length - 1]!], ticks, fractionDigits: whole ? 0 : 2 };
}
