/** Display helpers of the holdings table; money and percentages come from common/format. */
import { formatPercent } from '@app/common/format/percent';
import { formatSignedInr } from '@app/common/format/money';

const quantityFormat = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 4 });

/** `1,20,000` or `12.5`: Indian grouping, no trailing zeros. */
export function formatQuantity(value: number): string {
  return quantityFormat.format(value);
}

/** Green for gains, red for losses, grey for no change (anything under half a paisa). */
export function gainClass(value: number): string {
  if (Math.round(Math.abs(value) * 100) === 0) return 'text-flat';
  return value < 0 ? 'text-loss' : 'text-gain';
}

/** `+₹1,250.00`. */
export const signedInr = (value: number) => formatSignedInr(value);

/** `+3.25%`. */
export const signedPercent = (value: number) => formatPercent(value, { signed: true });
