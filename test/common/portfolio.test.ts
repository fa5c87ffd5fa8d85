import { expect } from 'chai';
import { aggregateHoldings } from '../../common/src/portfolio/aggregate.ts';
import { normalizeHolding } from '../../common/src/portfolio/normalize.ts';
import { sortHoldings } from '../../common/src/portfolio/sort.ts';
import { anyPriced, portfolioSummary, unpricedNote } from '../../common/src/portfolio/summary.ts';
import type { AggregatedHolding, RawHolding, RuleCoverage } from '../../common/src/portfolio/types.ts';

const holding = (overrides: Partial<RawHolding> & Pick<RawHolding, 'id' | 'symbol'>): RawHolding => ({
  exchange: 'NSE',
  quantity: 1,
  average_price: 1,
  ...overrides,
});

/** RELIANCE held in two accounts (numbers partly as strings), INFY without a price, SBIN on BSE. */
const HOLDINGS: RawHolding[] = [
  holding({
    id: 1,
    symbol: 'RELIANCE',
    company_name: 'Reliance Industries Limited',
    quantity: 10,
    average_price: 1000,
    current_price: 1200,
    day_change: '50',
    broker_account_id: 'acc-1',
    broker_name: 'Zerodha',
    broker_type: 'CSV_IMPORT',
  }),
  holding({
    id: 2,
    symbol: 'RELIANCE',
    quantity: '30',
    average_price: '1200.00',
    current_price: '1200',
    day_change: 150,
    broker_account_id: 'acc-2',
  }),
  holding({
    id: 3,
    symbol: 'INFY',
    quantity: 5,
    average_price: 1500,
    current_price: null,
    broker_account_id: 'acc-1',
  }),
  holding({
    id: 4,
    symbol: 'SBIN',
    exchange: 'BSE',
    quantity: 20,
    average_price: 900,
    current_price: 810,
    day_change: -40,
    broker_account_id: 'acc-2',
  }),
];

const rule = (overrides: Partial<RuleCoverage>): RuleCoverage => ({
  symbol: 'RELIANCE',
  exchange: 'NSE',
  is_active: true,
  rule_scope: 'all_holdings',
  target_account_id: null,
  ...overrides,
});

const RULES: RuleCoverage[] = [
  rule({}),
  rule({ rule_scope: 'specific_account', target_account_id: 'acc-2' }),
  rule({ is_active: false }),
  rule({ exchange: 'BSE' }),
  rule({ symbol: 'INFY', rule_scope: 'specific_account', target_account_id: 'acc-9' }),
  rule({ symbol: 'SBIN', exchange: 'BSE', rule_scope: 'all' }),
];

describe('normalizeHolding', () => {
  it('converts numeric strings and derives values', () => {
    const result = normalizeHolding(HOLDINGS[1]!);
    expect(result).to.deep.include({
      quantity: 30,
      average_price: 1200,
      current_price: 1200,
      purchase_value: 36000,
      market_value: 36000,
      pnl: 0,
      pnl_percent: 0,
      day_change: 150,
      day_change_percent: 0,
      company_name: null,
    });
  });

  it('has no market value and no P&L without a price (never the buy price), and 0 percent without a purchase value', () => {
    expect(normalizeHolding(HOLDINGS[2]!)).to.deep.include({
      purchase_value: 7500,
      market_value: null,
      pnl: null,
      pnl_percent: null,
      day_change: 0,
    });
    const free = normalizeHolding(
      holding({ id: 9, symbol: 'BONUS', quantity: 4, average_price: 0, current_price: 50 }),
    );
    expect(free).to.deep.include({ purchase_value: 0, market_value: 200, pnl: 200, pnl_percent: 0 });
  });

  it('keeps a market value the server sent', () => {
    const sent = normalizeHolding(
      holding({ id: 5, symbol: 'ITC', quantity: 10, average_price: 400, market_value: '4200.50' }),
    );
    // 200.5 / 4000 = 5.0125 %, rounded to 2 decimals as the server rounds it.
    expect(sent).to.deep.include({ market_value: 4200.5, pnl: 200.5, pnl_percent: 5.01 });
  });
});

describe('aggregateHoldings', () => {
  const aggregated = aggregateHoldings(HOLDINGS, RULES);
  const reliance = aggregated.find((row) => row.symbol === 'RELIANCE')!;

  it('groups by symbol and exchange with a weighted average price', () => {
    expect(aggregated.map((row) => `${row.symbol}:${row.exchange}`)).to.deep.equal([
      'RELIANCE:NSE',
      'INFY:NSE',
      'SBIN:BSE',
    ]);
    expect(reliance).to.deep.include({
      company_name: 'Reliance Industries Limited',
      current_price: 1200,
      total_quantity: 40,
      weighted_avg_price: 1150,
      total_investment: 46000,
      total_current_value: 48000,
      total_pnl: 2000,
      day_change: 200,
    });
    expect(reliance.total_pnl_percent).to.be.closeTo((2000 / 46000) * 100, 1e-9);
    expect(reliance.day_change_percent).to.be.closeTo((200 / 47800) * 100, 1e-9);
  });

  it('lists each account with Unknown for a missing broker', () => {
    expect(
      reliance.accounts.map((account) => [
        account.broker_account_id,
        account.broker_name,
        account.broker_type,
      ]),
    ).to.deep.equal([
      ['acc-1', 'Zerodha', 'CSV_IMPORT'],
      ['acc-2', 'Unknown', 'Unknown'],
    ]);
    expect(reliance.accounts[0]).to.deep.include({
      quantity: 10,
      purchase_value: 10000,
      market_value: 12000,
      pnl: 2000,
      pnl_percent: 20,
    });
  });

  it('leaves a row without a price without current value, P&L and gain', () => {
    expect(aggregated.find((row) => row.symbol === 'INFY')).to.deep.include({
      current_price: null,
      total_investment: 7500,
      total_current_value: null,
      total_pnl: null,
      total_pnl_percent: null,
    });
  });

  it('counts active rules for all holdings or the targeted account', () => {
    expect(reliance.active_rules_count).to.equal(2);
    expect(reliance.accounts.map((account) => account.active_rules_count)).to.deep.equal([1, 2]);
    expect(aggregated.find((row) => row.symbol === 'INFY')!.active_rules_count).to.equal(0);
    expect(aggregated.find((row) => row.symbol === 'SBIN')!.active_rules_count).to.equal(1);
  });

  it('treats account ids of different types alike', () => {
    const rows = aggregateHoldings(
      [holding({ id: 1, symbol: 'TCS', broker_account_id: 7 })],
      [rule({ symbol: 'TCS', rule_scope: 'specific_account', target_account_id: '7' })],
    );
    expect(rows[0]!.active_rules_count).to.equal(1);
  });
});

describe('portfolioSummary', () => {
  it('totals investment, value, P&L and day change; a holding without a price counts in neither value nor P&L', () => {
    const summary = portfolioSummary(aggregateHoldings(HOLDINGS, RULES));
    // INFY (₹7,500 invested) has no price: the investment keeps it, value and P&L do not.
    expect(summary).to.deep.include({
      total_investment: 71500,
      total_current_value: 48000 + 16200,
      total_pnl: 200,
      day_change: 160,
      holdings_count: 3,
      unpriced_count: 1,
    });
    expect(summary.total_pnl_percent).to.be.closeTo((200 / 64000) * 100, 1e-9);
    expect(summary.day_change_percent).to.be.closeTo((160 / 64040) * 100, 1e-9);
    expect(unpricedNote(summary)).to.equal(
      '1 holding without a price is not counted in Current Value and P&L.',
    );
    expect(anyPriced(summary)).to.equal(true);
    expect(portfolioSummary([])).to.deep.equal({
      total_investment: 0,
      total_current_value: 0,
      total_pnl: 0,
      total_pnl_percent: 0,
      day_change: 0,
      day_change_percent: 0,
      holdings_count: 0,
      unpriced_count: 0,
    });
    expect(unpricedNote(portfolioSummary([]))).to.equal(null);
  });

  it('says how many holdings are left out, and that nothing is valued when none has a price', () => {
    const unpriced = aggregateHoldings([
      holding({ id: 1, symbol: 'IDEA', quantity: 1000, average_price: 7.41 }),
      holding({ id: 2, symbol: 'YESBANK', quantity: 100, average_price: 20 }),
    ]);
    const summary = portfolioSummary(unpriced);
    expect(summary).to.deep.include({ total_current_value: 0, total_pnl: 0, unpriced_count: 2 });
    expect(anyPriced(summary)).to.equal(false);
    expect(unpricedNote(summary)).to.equal(
      '2 holdings without a price are not counted in Current Value and P&L.',
    );
  });
});

describe('sortHoldings', () => {
  const rows = aggregateHoldings(HOLDINGS, RULES);
  const order = (list: readonly AggregatedHolding[]): string[] => list.map((row) => row.symbol);

  it('sorts by symbol ascending or descending', () => {
    expect(order(sortHoldings(rows, 'symbol', 'asc'))).to.deep.equal(['INFY', 'RELIANCE', 'SBIN']);
    expect(order(sortHoldings(rows, 'symbol', 'desc'))).to.deep.equal(['SBIN', 'RELIANCE', 'INFY']);
  });

  it('sorts by each numeric column', () => {
    expect(order(sortHoldings(rows, 'total_quantity', 'desc'))).to.deep.equal(['RELIANCE', 'SBIN', 'INFY']);
    expect(order(sortHoldings(rows, 'weighted_avg_price', 'asc'))).to.deep.equal([
      'SBIN',
      'RELIANCE',
      'INFY',
    ]);
    // INFY has no price, so no P&L: last (see below).
    expect(order(sortHoldings(rows, 'total_pnl_percent', 'desc'))).to.deep.equal([
      'RELIANCE',
      'SBIN',
      'INFY',
    ]);
    expect(order(sortHoldings(rows, 'active_rules_count', 'desc'))).to.deep.equal([
      'RELIANCE',
      'SBIN',
      'INFY',
    ]);
  });

  it('puts rows without a P&L last in either direction', () => {
    expect(order(sortHoldings(rows, 'total_pnl', 'asc'))).to.deep.equal(['SBIN', 'RELIANCE', 'INFY']);
    expect(order(sortHoldings(rows, 'total_pnl', 'desc'))).to.deep.equal(['RELIANCE', 'SBIN', 'INFY']);
  });

  it('breaks ties by rule count, then symbol', () => {
    const tied = aggregateHoldings(
      [
        holding({ id: 1, symbol: 'TCS', quantity: 5 }),
        holding({ id: 2, symbol: 'ITC', quantity: 5 }),
        holding({ id: 3, symbol: 'WIPRO', quantity: 5 }),
      ],
      [rule({ symbol: 'WIPRO' })],
    );
    expect(order(sortHoldings(tied, 'total_quantity', 'asc'))).to.deep.equal(['WIPRO', 'ITC', 'TCS']);
    expect(order(sortHoldings(tied, 'total_quantity', 'desc'))).to.deep.equal(['WIPRO', 'ITC', 'TCS']);
  });
});
