import type { Exchange } from '../instruments/types.ts';
import type { PositionValues } from './position-math.ts';

type Numeric = number | string;

/** A holding as the server sends it; numeric fields may arrive as strings. */
export interface RawHolding {
  id: number | string;
  symbol: string;
  exchange: Exchange;
  company_name?: string | null;
  quantity: Numeric;
  average_price: Numeric;
  current_price?: Numeric | null;
  market_value?: Numeric | null;
  pnl?: Numeric | null;
  pnl_percent?: Numeric | null;
  purchase_value?: Numeric | null;
  day_change?: Numeric | null;
  day_change_percent?: Numeric | null;
  broker_account_id?: number | string | null;
  broker_name?: string | null;
  broker_type?: string | null;
}

/**
 * A position's quantity and prices and what it is worth at the current price (null without one:
 * never valued at an invented price).
 */
export interface PricedPosition extends PositionValues {
  quantity: number;
  average_price: number;
  current_price: number | null;
}

/** A flat holding with numbers and the derived values of `GET /api/holdings` (docs/holdings.md). */
export interface Holding extends PricedPosition {
  id: number | string;
  symbol: string;
  exchange: Exchange;
  company_name: string | null;
  /** Rupee change of the position's value today. */
  day_change: number;
  day_change_percent: number;
  broker_account_id: number | string | null;
  broker_name: string | null;
  broker_type: string | null;
}

/** The fields of a position rule that decide whether it covers a holding. */
export interface RuleCoverage {
  symbol: string;
  exchange: Exchange;
  is_active: boolean;
  /** `all_holdings` (or `all` from the template dialog) or `specific_account`. */
  rule_scope: string;
  target_account_id?: number | string | null;
}

/** One broker account's share of an aggregated holding. */
export interface AccountHolding extends PricedPosition {
  id: number | string;
  broker_account_id: number | string | null;
  broker_name: string;
  broker_type: string;
  day_change: number;
  active_rules_count: number;
}

/** One row of the holdings table: every account's holding of a symbol on one exchange. */
export interface AggregatedHolding {
  symbol: string;
  exchange: Exchange;
  company_name: string | null;
  current_price: number | null;
  total_quantity: number;
  /** Total investment divided by total quantity. */
  weighted_avg_price: number;
  total_investment: number;
  /** Null until the instrument has a price ("No price"). */
  total_current_value: number | null;
  total_pnl: number | null;
  total_pnl_percent: number | null;
  day_change: number;
  day_change_percent: number;
  /** Distinct active rules covering at least one of the accounts. */
  active_rules_count: number;
  accounts: AccountHolding[];
}

/**
 * The Portfolio Summary table. Current value and P&L count only holdings with a price (P&L is
 * measured against their investment); `unpriced_count` rows are left out of both.
 */
export interface PortfolioSummary {
  /** Every holding's investment, priced or not. */
  total_investment: number;
  total_current_value: number;
  total_pnl: number;
  total_pnl_percent: number;
  day_change: number;
  day_change_percent: number;
  holdings_count: number;
  /** Rows without a price, counted in neither the current value nor the P&L. */
  unpriced_count: number;
}
