/**
 * Live values of holdings-table rows (pure, unit-tested): the REST snapshot's aggregated
 * holding with the instrument's latest quote applied, so LTP, P&L, gain % and day change move
 * with every tick while quantities and buy prices stay as loaded. Each account's figures come
 * from common's position-math and each row's totals from common's aggregate, as the snapshot's
 * do, so a tick at the snapshot's price changes no number.
 */
import { instrumentKey } from '@app/common/market/tick-batch';
import { holdingTotals } from '@app/common/portfolio/aggregate';
import { dayChange, positionFigures, type PositionQuote } from '@app/common/portfolio/position-math';
import { portfolioSummary } from '@app/common/portfolio/summary';
import type { AccountHolding, AggregatedHolding, PortfolioSummary } from '@app/common/portfolio/types';

/** The fields of a live quote the math needs. */
export type QuoteLike = PositionQuote;

/** The store key of an aggregated holding's instrument. */
export function holdingKey(row: Pick<AggregatedHolding, 'exchange' | 'symbol'>): string {
  return instrumentKey(row.exchange, row.symbol);
}

function applyToAccount(account: AccountHolding, quote: QuoteLike): AccountHolding {
  const { purchase_value, market_value, pnl, pnl_percent, day_change } = positionFigures(
    account.quantity,
    account.average_price,
    quote,
  );
  return {
    ...account,
    current_price: quote.ltp,
    purchase_value,
    market_value,
    pnl,
    pnl_percent,
    // The snapshot reads a missing day change as 0 (normalize.ts).
    day_change: day_change ?? 0,
  };
}

/** The row with `quote` applied to it and to each account; the row itself when there is no quote. */
export function applyQuote(row: AggregatedHolding, quote: QuoteLike | undefined): AggregatedHolding {
  if (!quote) return row;
  const accounts = row.accounts.map((account) => applyToAccount(account, quote));
  return { ...row, current_price: quote.ltp, ...holdingTotals(accounts), accounts };
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
  const dayChangeKnown = rows.some((row) => dayChange(row.total_quantity, quoteOf(holdingKey(row))) !== null);
  return { ...portfolioSummary(live), dayChangeKnown };
}
