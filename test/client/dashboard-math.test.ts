import { aggregateHoldings } from '@app/common/portfolio/aggregate';
import type { RawHolding, RuleCoverage } from '@app/common/portfolio/types';
import { expect } from 'chai';
import {
  activeRulesCount,
  allocation,
  MAX_SLICES,
  rulesStepComplete,
  topMovers,
} from '../../client/src/routes/dashboard/dashboardMath.ts';

const held = (symbol: string, account: string, quantity = 10, price = 100): RawHolding => ({
  id: `${symbol}-${account}`,
  symbol,
  exchange: 'NSE',
  quantity,
  average_price: price,
  current_price: price,
  broker_account_id: account,
  broker_name: account,
  broker_type: 'CSV_IMPORT',
});

const rule = (over: Partial<RuleCoverage>): RuleCoverage => ({
  symbol: 'SBIN',
  exchange: 'NSE',
  is_active: true,
  rule_scope: 'all_holdings',
  target_account_id: null,
  ...over,
});

describe('client: dashboard figures', () => {
  const holdings = [
    { symbol: 'SBIN', exchange: 'NSE' as const, broker_account_id: 'acc-1' },
    { symbol: 'TCS', exchange: 'NSE' as const, broker_account_id: 'acc-2' },
  ];

  it('completes the rules step with an active rule on a held instrument for all holdings', () => {
    expect(rulesStepComplete(holdings, [])).to.equal(false);
    expect(rulesStepComplete(holdings, [rule({})])).to.equal(true);
    expect(rulesStepComplete(holdings, [rule({ is_active: false })])).to.equal(false);
    expect(rulesStepComplete(holdings, [rule({ symbol: 'INFY' })])).to.equal(false);
    expect(rulesStepComplete(holdings, [rule({ exchange: 'BSE' })])).to.equal(false);
  });

  it("completes it with an account rule only when it targets the holding's account", () => {
    const specific = (account: string) =>
      rule({ rule_scope: 'specific_account', target_account_id: account });
    expect(rulesStepComplete(holdings, [specific('acc-1')])).to.equal(true);
    expect(rulesStepComplete(holdings, [specific('acc-2')])).to.equal(false);
    expect(activeRulesCount([rule({}), rule({ is_active: false }), rule({ symbol: 'TCS' })])).to.equal(2);
  });

  it('splits the value by holding or by account, largest first, folding the tail into Others', () => {
    const rows = aggregateHoldings([
      held('SBIN', 'Zerodha', 10, 100),
      held('SBIN', 'Groww', 30, 100),
      held('TCS', 'Zerodha', 1, 1000),
    ]);
    const byHolding = allocation(rows, 'holding', (id) => id);
    expect(byHolding.map((s) => [s.name, s.value, s.percent])).to.deep.equal([
      ['SBIN', 4000, 80],
      ['TCS', 1000, 20],
    ]);
    const byAccount = allocation(rows, 'account', (id) => `${id} account`);
    expect(byAccount.map((s) => [s.name, s.value])).to.deep.equal([
      ['Groww account', 3000],
      ['Zerodha account', 2000],
    ]);
    const many = aggregateHoldings(Array.from({ length: 10 }, (_, i) => held(`S${i}`, 'A', 1, 100 + i)));
    const slices = allocation(many, 'holding', (id) => id);
    expect(slices).to.have.length(MAX_SLICES);
    expect(slices[MAX_SLICES - 1]!.name).to.equal('Others');
    expect(slices.reduce((sum, s) => sum + s.percent, 0)).to.be.closeTo(100, 1e-9);
  });

  it("lists the day's top gainers and losers by day change %", () => {
    const rows = aggregateHoldings(['A', 'B', 'C', 'D', 'E'].map((s) => held(s, 'X')));
    const quotes: Record<string, { ltp: number; prevClose: number | null }> = {
      'NSE:A': { ltp: 105, prevClose: 100 },
      'NSE:B': { ltp: 102, prevClose: 100 },
      'NSE:C': { ltp: 90, prevClose: 100 },
      'NSE:D': { ltp: 99, prevClose: 100 },
      'NSE:E': { ltp: 120, prevClose: null },
    };
    const { gainers, losers } = topMovers(rows, (key) => quotes[key], 3);
    expect(gainers.map((m) => m.symbol)).to.deep.equal(['A', 'B']);
    expect(losers.map((m) => m.symbol)).to.deep.equal(['C', 'D']);
    expect(losers[0]!.changePercent).to.be.closeTo(-10, 1e-9);
  });
});
