import { MISSING_VALUE } from './money.ts';

export interface PercentOptions {
  /** Prefix `+` on values above zero (gains); negatives always show `-`; zero has no sign. */
  signed?: boolean;
  /** Digits after the decimal point; 2 unless told otherwise. */
  fractionDigits?: number;
}

/**
 * A percentage given in percent units: `formatPercent(12.345)` → `'12.35%'`,
 * `formatPercent(3, { signed: true })` → `'+3.00%'`. Non-finite values print `'—'`.
 */
export function formatPercent(value: number, opts: PercentOptions = {}): string {
  if (!Number.isFinite(value)) return MISSING_VALUE;
  const digits = opts.fractionDigits ?? 2;
  const abs = Math.abs(value).toFixed(digits);
  const isZero = Number(abs) === 0;
  const sign = isZero ? '' : value < 0 ? '-' : opts.signed ? '+' : '';
  return `${sign}${abs}%`;
}
