import type { AggregatedHolding } from './types.ts';

/**
 * Sortable columns of the holdings table: Symbol, Total Qty, Buy Price, LTP, Current value, Day
 * change, P&L, Gain %, Rules.
 */
export type HoldingSortField =
  | 'symbol'
  | 'total_quantity'
  | 'weighted_avg_price'
  | 'current_price'
  | 'total_current_value'
  | 'day_change'
  | 'total_pnl'
  | 'total_pnl_percent'
  | 'active_rules_count';

export type SortDirection = 'asc' | 'desc';

/**
 * Orders holdings-table rows as the page does (docs/holdings.md#holdings-and-dashboard-screens):
 * first by active rule count descending, then by symbol, then (stably) by the chosen column in the
 * chosen direction. Returns a new array.
 */
export function sortHoldings<T extends AggregatedHolding>(
  list: readonly T[],
  field: HoldingSortField,
  direction: SortDirection,
): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...list]
    .sort(
      (a, b) =>
        b.active_rules_count - a.active_rules_count ||
        compareText(a.symbol, b.symbol) ||
        compareText(a.exchange, b.exchange) * -1,
    )
    .sort((a, b) => unpricedLast(a, b, field) || sign * compareField(a, b, field));
}

/** Rows without a price (no LTP, value or P&L) go last in either direction. */
function unpricedLast(a: AggregatedHolding, b: AggregatedHolding, field: HoldingSortField): number {
  if (field === 'symbol') return 0;
  return Number(a[field] === null) - Number(b[field] === null);
}

function compareField(a: AggregatedHolding, b: AggregatedHolding, field: HoldingSortField): number {
  if (field === 'symbol') return compareText(a.symbol, b.symbol);
  return (a[field] ?? 0) - (b[field] ?? 0);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
