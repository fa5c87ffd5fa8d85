/**
 * A position's numbers (docs/holdings.md, One rounding rule), in one place for the server's
 * presenter, the REST snapshot and the live client, so a holding shows the same figures whichever
 * of them computed it.
 *
 * The rounding rule: every figure is computed from the unrounded quantity and prices and
 * rounded once, to paise (percents to 2 decimals), by {@link round2}. Without a price there is
 * no market value and no P&L: the app never values a holding at an invented price (not even
 * its buy price). Without a usable previous close (missing or not above 0) there is no day
 * change.
 */

/** Rounds to paise (2 decimals), half away from zero, without binary drift (1.005 → 1.01). */
export function round2(value: number): number {
  if (!Number.isFinite(value)) return value;
  const abs = Math.abs(value);
  const cents = abs * 100;
  // Binary drift (1.005 * 100 = 100.49999…) matters only next to half a paisa: only there is the
  // slower exact shift of the decimal point in the text needed (hot paths round every tick).
  const fraction = cents - Math.floor(cents);
  const nearHalf = Math.abs(fraction - 0.5) <= 1e-6 + cents * 1e-12;
  const rounded = Math.round(nearHalf ? decimalCents(abs) : cents);
  return (value < 0 ? -rounded : rounded) / 100;
}

/** `abs × 100` computed on its decimal text, so 1.005 gives exactly 100.5. */
function decimalCents(abs: number): number {
  const text = String(abs);
  return text.includes('e') ? abs * 100 : Number(`${text}e2`);
}

/** `part / whole × 100`, or 0 when there is no whole (unrounded: totals are computed from it). */
export function percentOf(part: number, whole: number): number {
  return whole > 0 ? (part / whole) * 100 : 0;
}

/** The fields of a quote a position's numbers need. */
export interface PositionQuote {
  ltp: number;
  prevClose: number | null;
}

/** What a position is worth at a price; market value, P&L and its percent are null without one. */
export interface PositionValues {
  purchase_value: number;
  market_value: number | null;
  pnl: number | null;
  pnl_percent: number | null;
}

/**
 * Purchase value = quantity × buy price; market value = quantity × price; P&L = market −
 * purchase, and its percent of the purchase (0 without one); each rounded to paise. `price`
 * null gives nulls.
 */
export function positionValues(quantity: number, averagePrice: number, price: number | null): PositionValues {
  const purchaseValue = quantity * averagePrice;
  if (price === null)
    return { purchase_value: round2(purchaseValue), market_value: null, pnl: null, pnl_percent: null };
  const marketValue = quantity * price;
  const pnl = marketValue - purchaseValue;
  return {
    purchase_value: round2(purchaseValue),
    market_value: round2(marketValue),
    pnl: round2(pnl),
    pnl_percent: round2(percentOf(pnl, purchaseValue)),
  };
}

/**
 * Today's change of a position, rounded to paise: `amount` = (LTP − previous close) × quantity, `percent` of the previous close; null without a
 * usable previous close. With quantity 1 it is a quote's own change.
 */
export function dayChange(
  quantity: number,
  quote: PositionQuote | null | undefined,
): { amount: number; percent: number } | null {
  if (!quote || quote.prevClose === null || !(quote.prevClose > 0)) return null;
  const move = quote.ltp - quote.prevClose;
  return { amount: round2(move * quantity), percent: round2((move / quote.prevClose) * 100) };
}

/** A position's values and day change at a quote (or without one), as the API presents them. */
export interface PositionFigures extends PositionValues {
  day_change: number | null;
  day_change_percent: number | null;
}

/** Every figure of a position at `quote`: {@link positionValues} and {@link dayChange}. */
export function positionFigures(
  quantity: number,
  averagePrice: number,
  quote: PositionQuote | null | undefined,
): PositionFigures {
  const day = dayChange(quantity, quote);
  return {
    ...positionValues(quantity, averagePrice, quote ? quote.ltp : null),
    day_change: day ? day.amount : null,
    day_change_percent: day ? day.percent : null,
  };
}
