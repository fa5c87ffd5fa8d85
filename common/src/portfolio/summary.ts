import { percentOf } from './normalize.ts';
import type { AggregatedHolding, PortfolioSummary } from './types.ts';

/**
 * Totals for the Portfolio Summary table: investment, current value, P&L and its percent of the
 * investment, today's change and its percent of yesterday's value, and the number of rows.
 */
export function portfolioSummary(aggregated: readonly AggregatedHolding[]): PortfolioSummary {
  const sum = (pick: (row: AggregatedHolding) => number): number =>
    aggregated.reduce((total, row) => total + pick(row), 0);
  const totalInvestment = sum((row) => row.total_investment);
  const totalCurrentValue = sum((row) => row.total_current_value);
  const totalPnl = totalCurrentValue - totalInvestment;
  const dayChange = sum((row) => row.day_change);
  return {
    total_investment: totalInvestment,
    total_current_value: totalCurrentValue,
    total_pnl: totalPnl,
    total_pnl_percent: percentOf(totalPnl, totalInvestment),
    day_change: dayChange,
    day_change_percent: percentOf(dayChange, totalCurrentValue - dayChange),
    holdings_count: aggregated.length,
  };
}
