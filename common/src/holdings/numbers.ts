/**
 * Number parsing for broker exports: Indian digit grouping (`6,42,438.00`), rupee and percent
 * signs, explicit `+` signs, Unicode minus and accounting-style `(123.45)` negatives.
 */

const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)$/;
const DECORATION = /₹|rs\.?|inr|%|,|\s|\u00a0/gi;

/** Parses a plain decimal such as `12`, `12.5` or `-0.25`; anything else gives `NaN`. */
export function parseDecimal(raw: string): number {
  const text = raw.trim();
  return DECIMAL.test(text) ? Number(text) : Number.NaN;
}

/**
 * Parses an amount or quantity as brokers print it: grouping commas, `₹`/`Rs.`/`INR`, `%`,
 * `+`/`-`/`−` signs and parentheses for negatives. Empty or non-numeric text gives `NaN`.
 */
export function parseBrokerNumber(raw: string): number {
  let text = raw.trim().replace(/\u2212/g, '-');
  let negative = false;
  if (text.startsWith('(') && text.endsWith(')')) {
    negative = true;
    text = text.slice(1, -1);
  }
  text = text.replace(DECORATION, '');
  const value = parseDecimal(text);
  return negative ? -value : value;
}

/** True for a finite number greater than zero. */
export function isPositiveNumber(value: number): boolean {
  return Number.isFinite(value) && value > 0;
}
