import { percentOf } from './position-math.ts';
import type { AggregatedHolding, PortfolioSummary } from './types.ts';

/**
 * Totals for the Portfolio Summary table: investment (every row), current value and P&L (rows
 * with a price only; P&L as a percent of their investment), today's change and its percent of
 * yesterday's value, the number of rows and how many of them have no price.
 */
export function portfolioSummary(aggregated: readonly AggregatedHolding[]): PortfolioSummary {
  const sum = (rows: readonly AggregatedHolding[], pick: (row: AggregatedHolding) => number): number =>
    rows.reduce((total, row) => total + pick(row), 0);
  const priced = aggregated.filter((row) => row.total_current_value !== null);
  const pricedInvestment = sum(priced, (row) => row.total_investment);
  const totalCurrentValue = sum(priced, (row) => row.total_current_value ?? 0);
  const totalPnl = totalCurrentValue - pricedInvestment;
  const dayChange = sum(aggregated, (row) => row.day_change);
  return {
    total_investment: sum(aggregated, (row) => row.total_investment),
    total_current_value: totalCurrentValue,
    total_pnl: totalPnl,
    total_pnl_percent: percentOf(totalPnl, pricedInvestment),
    day_change: dayChange,
    day_change_percent: percentOf(dayChange, totalCurrentValue - dayChange),
    holdings_count: aggregated.length,
    unpriced_count: aggregated.length - priced.length,
  };
}

/**
 * The line under the totals when some holdings have no price: '2 holdings without a price are
 * not counted in Current Value and P&L.' Null when every holding has one.
 */
export function unpricedNote(summary: Pick<PortfolioSummary, 'unpriced_count'>): string | null {
  const n = summary.unpriced_count;
  if (n === 0) return null;
  return n === 1
    ? '1 holding without a price is not counted in Current Value and P&L.'
    : `${n} holdings without a price are not counted in Current Value and P&L.`;
}

/** Whether any holding has a price: without one, Current Value and P&L are not shown at all. */
export function anyPriced(summary: Pick<PortfolioSummary, 'holdings_count' | 'unpriced_count'>): boolean {
  return summary.unpriced_count < summary.holdings_count;
}
