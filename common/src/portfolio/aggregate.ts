import { instrumentKey } from '../market/tick-batch.ts';
import { normalizeHolding } from './normalize.ts';
import { percentOf } from './position-math.ts';
import { ruleCoversAccount } from './rules.ts';
import type { AccountHolding, AggregatedHolding, Holding, RawHolding, RuleCoverage } from './types.ts';

const UNKNOWN = 'Unknown';

/**
 * Groups holdings by symbol+exchange into holdings-table rows
 * (docs/holdings.md#holdings-and-dashboard-screens): totals across accounts, weighted average price
 * = total investment / total quantity, P&L and its percent of the investment (null, like the
 * current value, without a price), today's change, and the active rules covering each account and
 * the group. Groups keep the order in which their symbols first appear.
 */
export function aggregateHoldings(
  holdings: readonly RawHolding[],
  rules: readonly RuleCoverage[] = [],
): AggregatedHolding[] {
  const groups = new Map<string, Holding[]>();
  for (const raw of holdings) {
    const holding = normalizeHolding(raw);
    const key = instrumentKey(holding.exchange, holding.symbol);
    const group = groups.get(key);
    if (group) group.push(holding);
    else groups.set(key, [holding]);
  }
  return [...groups.values()].map((group) => aggregateGroup(group, rules));
}

/** The fields of a row that {@link holdingTotals} computes. */
export type HoldingTotals = Pick<
  AggregatedHolding,
  | 'total_quantity'
  | 'weighted_avg_price'
  | 'total_investment'
  | 'total_current_value'
  | 'total_pnl'
  | 'total_pnl_percent'
  | 'day_change'
  | 'day_change_percent'
>;

/** The figures of one account's position that a row's totals are summed from. */
type AccountFigures = Pick<
  AccountHolding,
  'quantity' | 'average_price' | 'purchase_value' | 'market_value' | 'day_change'
>;

/**
 * A holdings-table row's totals from its accounts' (rounded) figures, for the REST snapshot and
 * the live client alike: weighted average price = cost / quantity (from the unrounded cost),
 * P&L and its percent of the investment (null, like the current value, unless every account
 * has a price), today's change and its percent of yesterday's value.
 */
export function holdingTotals(accounts: readonly AccountFigures[]): HoldingTotals {
  const sum = (pick: (account: AccountFigures) => number): number =>
    accounts.reduce((total, account) => total + pick(account), 0);
  const totalQuantity = sum((a) => a.quantity);
  const totalInvestment = sum((a) => a.purchase_value);
  // Every account holds the same instrument: priced together, or not at all.
  const priced = accounts.every((a) => a.market_value !== null);
  const totalCurrentValue = priced ? sum((a) => a.market_value ?? 0) : null;
  const totalPnl = totalCurrentValue === null ? null : totalCurrentValue - totalInvestment;
  const dayChange = sum((a) => a.day_change);
  return {
    total_quantity: totalQuantity,
    weighted_avg_price: totalQuantity > 0 ? sum((a) => a.quantity * a.average_price) / totalQuantity : 0,
    total_investment: totalInvestment,
    total_current_value: totalCurrentValue,
    total_pnl: totalPnl,
    total_pnl_percent: totalPnl === null ? null : percentOf(totalPnl, totalInvestment),
    day_change: dayChange,
    day_change_percent: totalCurrentValue === null ? 0 : percentOf(dayChange, totalCurrentValue - dayChange),
  };
}

function aggregateGroup(group: readonly Holding[], rules: readonly RuleCoverage[]): AggregatedHolding {
  const [first] = group;
  if (!first) throw new RangeError('aggregateGroup needs at least one holding');
  const { symbol, exchange } = first;
  const coveringRules = rules.filter((rule) =>
    group.some((h) => ruleCoversAccount(rule, symbol, exchange, h.broker_account_id)),
  );

  return {
    symbol,
    exchange,
    company_name: group.find((h) => h.company_name)?.company_name ?? null,
    current_price: group.find((h) => h.current_price !== null)?.current_price ?? null,
    ...holdingTotals(group),
    active_rules_count: coveringRules.length,
    accounts: group.map((holding) => toAccountHolding(holding, rules)),
  };
}

function toAccountHolding(holding: Holding, rules: readonly RuleCoverage[]): AccountHolding {
  const { symbol, exchange, broker_account_id: accountId } = holding;
  return {
    id: holding.id,
    broker_account_id: accountId,
    broker_name: holding.broker_name || UNKNOWN,
    broker_type: holding.broker_type || UNKNOWN,
    quantity: holding.quantity,
    average_price: holding.average_price,
    current_price: holding.current_price,
    market_value: holding.market_value,
    pnl: holding.pnl,
    pnl_percent: holding.pnl_percent,
    purchase_value: holding.purchase_value,
    day_change: holding.day_change,
    active_rules_count: rules.filter((rule) => ruleCoversAccount(rule, symbol, exchange, accountId)).length,
  };
}
