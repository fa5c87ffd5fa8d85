/** Dashboard figures (pure, unit-tested): checklist progress, allocation and the day's movers. */
import type { Exchange } from '@app/common/instruments/types';
import { ruleCoversAccount } from '@app/common/portfolio/rules';
import type { AggregatedHolding, RuleCoverage } from '@app/common/portfolio/types';
import { dayChange } from '@app/common/portfolio/position-math';
import { holdingKey, type QuoteLike } from '../../live/liveHoldings.ts';

interface HeldPosition {
  symbol: string;
  exchange: Exchange;
  broker_account_id: string | number | null;
}

/**
 * The rules step (docs/holdings.md#holdings-and-dashboard-screens) is complete once an active rule
 * matches a held symbol+exchange and applies to all holdings or targets that holding's account.
 */
export function rulesStepComplete(
  holdings: readonly HeldPosition[],
  rules: readonly RuleCoverage[],
): boolean {
  return holdings.some((h) =>
    rules.some((rule) => ruleCoversAccount(rule, h.symbol, h.exchange, h.broker_account_id)),
  );
}

/** The Active Rules card. */
export function activeRulesCount(rules: readonly Pick<RuleCoverage, 'is_active'>[]): number {
  return rules.filter((rule) => rule.is_active).length;
}

export interface AllocationSlice {
  name: string;
  value: number;
  /** Share of the whole, 0–100. */
  percent: number;
}

export type AllocationView = 'holding' | 'account';

/** Slices beyond this many are folded into 'Others'. */
export const MAX_SLICES = 7;

/**
 * Current value by holding (symbol) or by broker account, largest first; the tail beyond
 * {@link MAX_SLICES} becomes 'Others'. `rows` should carry live prices already.
 */
export function allocation(
  rows: readonly AggregatedHolding[],
  view: AllocationView,
  accountName: (accountId: string) => string,
): AllocationSlice[] {
  const values = new Map<string, number>();
  const add = (name: string, value: number) => values.set(name, (values.get(name) ?? 0) + value);
  for (const row of rows) {
    // A holding without a price has no current value: it takes no share of the whole.
    if (view === 'holding') add(row.symbol, row.total_current_value ?? 0);
    else
      for (const account of row.accounts)
        add(accountName(String(account.broker_account_id)), account.market_value ?? 0);
  }
  const total = [...values.values()].reduce((sum, value) => sum + value, 0);
  const sorted = [...values]
    .filter(([, value]) => value > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const head = sorted.length > MAX_SLICES ? sorted.slice(0, MAX_SLICES - 1) : sorted;
  const tail = sorted.slice(head.length);
  const slices = head.map(([name, value]) => ({ name, value }));
  if (tail.length > 0)
    slices.push({ name: 'Others', value: tail.reduce((sum, [, value]) => sum + value, 0) });
  return slices.map((slice) => ({ ...slice, percent: total > 0 ? (slice.value / total) * 100 : 0 }));
}

export interface Mover {
  symbol: string;
  exchange: Exchange;
  ltp: number;
  changePercent: number;
}

/** The day's top gainers and losers among the holdings, by day change %. */
export function topMovers(
  rows: readonly AggregatedHolding[],
  quoteOf: (key: string) => QuoteLike | undefined,
  count = 3,
): { gainers: Mover[]; losers: Mover[] } {
  const movers: Mover[] = [];
  for (const row of rows) {
    const quote = quoteOf(holdingKey(row));
    const day = dayChange(row.total_quantity, quote);
    if (quote && day)
      movers.push({ symbol: row.symbol, exchange: row.exchange, ltp: quote.ltp, changePercent: day.percent });
  }
  const byName = (a: Mover, b: Mover) => a.symbol.localeCompare(b.symbol);
  return {
    gainers: movers
      .filter((m) => m.changePercent > 0)
      .sort((a, b) => b.changePercent - a.changePercent || byName(a, b))
      .slice(0, count),
    losers: movers
      .filter((m) => m.changePercent < 0)
      .sort((a, b) => a.changePercent - b.changePercent || byName(a, b))
      .slice(0, count),
  };
}
