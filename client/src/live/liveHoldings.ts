/**
 * Live values of holdings-table rows (pure, unit-tested): the REST snapshot's aggregated
 * holding with the instrument's latest quote applied, so LTP, P&L, gain % and day change move
 * with every tick while quantities and buy prices stay as loaded.
 */
import { portfolioSummary } from '@app/common/portfolio/summary';
import type { AccountHolding, AggregatedHolding, PortfolioSummary } from '@app/common/portfolio/types';
import { percentOf, positionValues } from '@app/common/portfolio/values';
import { quoteKey } from './quoteStore.ts';

/** The fields of a live quote the math needs. */
export interface QuoteLike {
  ltp: number;
  prevClose: number | null;
}

/** The store key of an aggregated holding's instrument. */
export function holdingKey(row: Pick<AggregatedHolding, 'exchange' | 'symbol'>): string {
  return quoteKey(row.exchange, row.symbol);
}

/** Today's change of a position, or null without a previous close. */
export function dayChangeOf(
  quantity: number,
  quote: QuoteLike | undefined,
): { amount: number; percent: number } | null {
  if (!quote || quote.prevClose === null || !(quote.prevClose > 0)) return null;
  return {
    amount: (quote.ltp - quote.prevClose) * quantity,
    percent: ((quote.ltp - quote.prevClose) / quote.prevClose) * 100,
  };
}

function applyToAccount(account: AccountHolding, quote: QuoteLike): AccountHolding {
  return {
    ...account,
    current_price: quote.ltp,
    ...positionValues(account.quantity, account.average_price, quote.ltp),
    day_change: dayChangeOf(account.quantity, quote)?.amount ?? 0,
  };
}

/** The row with `quote` applied to it and to each account; the row itself when there is no quote. */
export function applyQuote(row: AggregatedHolding, quote: QuoteLike | undefined): AggregatedHolding {
  if (!quote) return row;
  const accounts = row.accounts.map((account) => applyToAccount(account, quote));
  const totalCurrentValue = accounts.reduce((sum, account) => sum + (account.market_value ?? 0), 0);
  const totalPnl = totalCurrentValue - row.total_investment;
  const day = dayChangeOf(row.total_quantity, quote);
  return {
    ...row,
    current_price: quote.ltp,
    total_current_value: totalCurrentValue,
    total_pnl: totalPnl,
    total_pnl_percent: percentOf(totalPnl, row.total_investment),
    day_change: day?.amount ?? 0,
    day_change_percent: day?.percent ?? 0,
    accounts,
  };
}

/** Every row with its latest quote applied. */
export function applyQuotes(
  rows: readonly AggregatedHolding[],
  quoteOf: (key: string) => QuoteLike | undefined,
): AggregatedHolding[] {
  return rows.map((row) => applyQuote(row, quoteOf(holdingKey(row))));
}

/** The Portfolio Summary at live prices; `dayChangeKnown` is false until some quote has a previous close. */
export function livePortfolioSummary(
  rows: readonly AggregatedHolding[],
  quoteOf: (key: string) => QuoteLike | undefined,
): PortfolioSummary & { dayChangeKnown: boolean } {
  const live = applyQuotes(rows, quoteOf);
  const dayChangeKnown = rows.some(
    (row) => dayChangeOf(row.total_quantity, quoteOf(holdingKey(row))) !== null,
  );
  return { ...portfolioSummary(live), dayChangeKnown };
}
