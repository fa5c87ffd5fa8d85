/** Small price helpers shared by the quote providers and their consumers. */

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * Absolute and percentage change of `ltp` against the previous close, rounded to 2 decimals;
 * both null when there is no usable previous close.
 */
export function priceChange(
  ltp: number,
  prevClose: number | null | undefined,
): { change: number | null; changePercent: number | null } {
  if (prevClose === null || prevClose === undefined || !(prevClose > 0)) {
    return { change: null, changePercent: null };
  }
  return { change: round2(ltp - prevClose), changePercent: round2(((ltp - prevClose) / prevClose) * 100) };
}

/** NSE's price step for equities: ₹0.05. */
export const NSE_TICK_SIZE = 0.05;

/** Rounds a price to the nearest tick (₹0.05 by default), never below one tick. */
export function roundToTick(price: number, tick = NSE_TICK_SIZE): number {
  const ticks = Math.max(1, Math.round(price / tick));
  return Math.round(ticks * tick * 100) / 100;
}
