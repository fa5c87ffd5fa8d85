import type { Holding, RawHolding } from './types.ts';

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

/** `part / whole × 100`, or 0 when there is no whole. */
export function percentOf(part: number, whole: number): number {
  return whole > 0 ? (part / whole) * 100 : 0;
}

/**
 * Converts a server holding to numbers and derives its values (spec §3): purchase value =
 * quantity × average price; market value as sent, else quantity × (current price, or average
 * price when there is none); pnl = market − purchase; pnl % of purchase (0 without one); day
 * change 0 unless sent.
 */
export function normalizeHolding(raw: RawHolding): Holding {
  const quantity = toNumber(raw.quantity);
  const averagePrice = toNumber(raw.average_price);
  const currentPrice = toNullableNumber(raw.current_price);
  const purchaseValue = quantity * averagePrice;
  const marketValue = toNullableNumber(raw.market_value) ?? quantity * (currentPrice ?? averagePrice);
  const pnl = marketValue - purchaseValue;
  return {
    id: raw.id,
    symbol: raw.symbol,
    exchange: raw.exchange,
    company_name: raw.company_name ?? null,
    quantity,
    average_price: averagePrice,
    current_price: currentPrice,
    purchase_value: purchaseValue,
    market_value: marketValue,
    pnl,
    pnl_percent: percentOf(pnl, purchaseValue),
    day_change: toNumber(raw.day_change),
    day_change_percent: toNumber(raw.day_change_percent),
    broker_account_id: raw.broker_account_id ?? null,
    broker_name: raw.broker_name ?? null,
    broker_type: raw.broker_type ?? null,
  };
}
