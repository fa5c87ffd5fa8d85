/**
 * Rupee formatting with Indian digit grouping (lakh, crore). Pure: no DOM, safe on the server.
 */
import { round2 } from '../portfolio/position-math.ts';

/** What the money formatters print for a value that is not a finite number. */
export const MISSING_VALUE = '—';

export interface InrOptions {
  /** Digits after the decimal point; 2 (paise) unless told otherwise. */
  fractionDigits?: number;
}

const formatters = new Map<number, Intl.NumberFormat>();

function inrFormatter(fractionDigits: number): Intl.NumberFormat {
  let formatter = formatters.get(fractionDigits);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-IN', {
      style: 'currency',
      currency: 'INR',
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    formatters.set(fractionDigits, formatter);
  }
  return formatter;
}

/**
 * Formats rupees the Indian way: `formatInr(12345678.9)` → `'₹1,23,45,678.90'`.
 * Negative values get a leading minus (`'-₹500.00'`); NaN and infinities print `'—'`.
 */
export function formatInr(value: number, opts: InrOptions = {}): string {
  if (!Number.isFinite(value)) return MISSING_VALUE;
  const formatted = inrFormatter(opts.fractionDigits ?? 2).format(Math.abs(value));
  return isNegativeAfterRounding(value, formatted, opts) ? `-${formatted}` : formatted;
}

/**
 * Rupees with an explicit sign, for gains and losses: `'+₹1,250.00'`, `'-₹80.50'`.
 * Zero (and anything that rounds to zero) is no change: `'₹0.00'`, without a sign.
 */
export function formatSignedInr(value: number, opts: InrOptions = {}): string {
  if (!Number.isFinite(value)) return MISSING_VALUE;
  const formatted = formatInr(value, opts);
  if (formatted.startsWith('-') || !/[1-9]/.test(formatted)) return formatted;
  return `+${formatted}`;
}

/**
 * Short rupee amounts for summary cards: `'₹1.23 L'` from one lakh, `'₹4.56 Cr'` from one crore.
 * Smaller amounts are printed in full (`'₹45,678.00'`).
 */
export function formatCompactInr(value: number): string {
  if (!Number.isFinite(value)) return MISSING_VALUE;
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  const lakhs = round2(abs / 1e5);
  if (lakhs < 1) return formatInr(value);
  if (lakhs < 100) return `${sign}₹${compactNumber.format(lakhs)} L`;
  return `${sign}₹${compactNumber.format(round2(abs / 1e7))} Cr`;
}

const compactNumber = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function isNegativeAfterRounding(value: number, formattedAbs: string, opts: InrOptions): boolean {
  return value < 0 && formattedAbs !== inrFormatter(opts.fractionDigits ?? 2).format(0);
}
