import type { Holding, RawHolding } from './types.ts';
import { percentOf, positionValues } from './position-math.ts';

export { percentOf };

/** Reads a number that may arrive as a string; null, empty or non-numeric give `fallback`. */
export function toNumber(value: number | string | null | undefined, fallback = 0): number {
  if (value === null || value === undefined) return fallback;
  const number = typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value);
  return Number.isFinite(number) ? number : fallback;
}

function toNullableNumber(value: number | string | null | undefined): number | null {
  const number = toNumber(value, Number.NaN);
  return Number.isNaN(number) ? null : number;
}

/**
 * Converts a server holding to numbers and derives its values (docs/holdings.md, position-math.ts):
 * purchase value = quantity × average price; market value = quantity × current price, else as
 * sent; P&L and its percent from those, rounded as the server rounds them. Without a current
 * price or a sent market value there is no market value and no P&L (null). Day change 0 unless
 * sent.
 */
export function normalizeHolding(raw: RawHolding): Holding {
  const quantity = toNumber(raw.quantity);
  const averagePrice = toNumber(raw.average_price);
  const currentPrice = toNullableNumber(raw.current_price);
  const sentValue = toNullableNumber(raw.market_value);
  // Computed from the price, the figures are the server's own (the same function); a market
  // value sent without a price is the whole position's value: one unit at that price.
  const values =
    currentPrice === null && sentValue !== null
      ? positionValues(1, quantity * averagePrice, sentValue)
      : positionValues(quantity, averagePrice, currentPrice);
  return {
    id: raw.id,
    symbol: raw.symbol,
    exchange: raw.exchange,
    company_name: raw.company_name ?? null,
    quantity,
    average_price: averagePrice,
    current_price: currentPrice,
    ...values,
    day_change: toNumber(raw.day_change),
    day_change_percent: toNumber(raw.day_change_percent),
    broker_account_id: raw.broker_account_id ?? null,
    broker_name: raw.broker_name ?? null,
    broker_type: raw.broker_type ?? null,
  };
}
