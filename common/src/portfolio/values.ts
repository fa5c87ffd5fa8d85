/**
 * A position's values at a price (spec §3), in one place for the server's presenter, the REST
 * snapshot and the live client. Without a price there is no market value and no P&L: the
 * app never values a holding at an invented price (not even its buy price).
 */

/** What a position is worth at `price`; market value, P&L and its percent are null without one. */
export interface PositionValues {
  purchase_value: number;
  market_value: number | null;
  pnl: number | null;
  pnl_percent: number | null;
}

/** `part / whole × 100`, or 0 when there is no whole. */
export function percentOf(part: number, whole: number): number {
  return whole > 0 ? (part / whole) * 100 : 0;
}

/**
 * Purchase value = quantity × buy price; market value = quantity × price; P&L = market −
 * purchase, and its percent of the purchase (0 without one). `price` null gives nulls.
 */
export function positionValues(quantity: number, averagePrice: number, price: number | null): PositionValues {
  const purchaseValue = quantity * averagePrice;
  if (price === null)
    return { purchase_value: purchaseValue, market_value: null, pnl: null, pnl_percent: null };
  const marketValue = quantity * price;
  const pnl = marketValue - purchaseValue;
  return {
    purchase_value: purchaseValue,
    market_value: marketValue,
    pnl,
    pnl_percent: percentOf(pnl, purchaseValue),
  };
}
