/** Small price helpers shared by the quote providers and their consumers. */
import { dayChange, round2 } from '../portfolio/position-math.ts';

/**
 * Absolute and percentage change of `ltp` against the previous close, rounded to 2 decimals
 * (one unit's day change); both null when there is no usable previous close.
 */
export function priceChange(
  ltp: number,
  prevClose: number | null | undefined,
): { change: number | null; changePercent: number | null } {
  const day = dayChange(1, { ltp, prevClose: prevClose ?? null });
  return { change: day ? day.amount : null, changePercent: day ? day.percent : null };
}

/** NSE's price step for equities: ₹0.05. */
export const NSE_TICK_SIZE = 0.05;

/** Rounds a price to the nearest tick (₹0.05 by default), never below one tick. */
export function roundToTick(price: number, tick = NSE_TICK_SIZE): number {
  const ticks = Math.max(1, Math.round(price / tick));
  return round2(ticks * tick);
}
