import { aggregateHoldings } from '@app/common/portfolio/aggregate';
import { portfolioSummary } from '@app/common/portfolio/summary';
import { presentHolding } from '../../server/src/holdings/present.ts';
import type { RawHolding } from '@app/common/portfolio/types';
import { expect } from 'chai';
import { dayChange } from '@app/common/portfolio/position-math';
import { applyQuote, livePortfolioSummary } from '../../client/src/live/liveHoldings.ts';

const holding = (id: string, symbol: string, quantity: number, avg: number, account: string): RawHolding => ({
  id,
  symbol,
  exchange: 'NSE',
  quantity,
  average_price: avg,
  current_price: null,
  broker_account_id: account,
  broker_name: account,
  broker_type: 'CSV_IMPORT',
});

describe('client: live holding values', () => {
  const rows = aggregateHoldings([
    holding('1', 'SBIN', 10, 900, 'zerodha'),
    holding('2', 'SBIN', 30, 1000, 'groww'),
    holding('3', 'TCS', 2, 3500, 'zerodha'),
  ]);
  const sbin = rows.find((r) => r.symbol === 'SBIN')!;

  it('reprices a row and each of its accounts at the live LTP', () => {
    const live = applyQuote(sbin, { ltp: 1020, prevClose: 1000 });
    expect(live.current_price).to.equal(1020);
    expect(live.total_current_value).to.equal(40 * 1020);
    expect(live.total_pnl).to.be.closeTo(40 * 1020 - (9000 + 30000), 1e-9);
    expect(live.total_pnl_percent).to.be.closeTo((1800 / 39000) * 100, 1e-9);
    expect(live.day_change).to.equal(40 * 20);
    expect(live.day_change_percent).to.be.closeTo(2, 1e-9);
    expect(live.accounts.map((a) => a.pnl)).to.deep.equal([1200, 600]);
    expect(live.total_investment).to.equal(sbin.total_investment);
  });

  it('leaves a row as loaded without a quote', () => {
    expect(applyQuote(sbin, undefined)).to.equal(sbin);
  });

  it('has no day change without a previous close', () => {
    expect(dayChange(10, { ltp: 100, prevClose: null })).to.equal(null);
    expect(dayChange(10, undefined)).to.equal(null);
    expect(dayChange(10, { ltp: 105, prevClose: 100 })).to.deep.equal({ amount: 50, percent: 5 });
  });

  it('sums the portfolio at live prices and says whether the day change is known', () => {
    const quotes: Record<string, { ltp: number; prevClose: number | null }> = {
      'NSE:SBIN': { ltp: 1020, prevClose: 1000 },
      'NSE:TCS': { ltp: 3600, prevClose: null },
    };
    const summary = livePortfolioSummary(rows, (key) => quotes[key]);
    expect(summary.total_investment).to.equal(39000 + 7000);
    expect(summary.total_current_value).to.equal(40800 + 7200);
    expect(summary.day_change).to.equal(800);
    expect(summary.holdings_count).to.equal(2);
    expect(summary.dayChangeKnown).to.equal(true);
    expect(livePortfolioSummary(rows, () => undefined).dayChangeKnown).to.equal(false);
  });
});

describe('client: holdings without a price', () => {
  const rows = aggregateHoldings([
    holding('1', 'SBIN', 10, 900, 'zerodha'),
    holding('2', 'IDEA', 1000, 7.41, 'zerodha'),
  ]);

  it('shows no P&L for a holding until it has a price, and leaves it out of value and P&L', () => {
    const idea = rows.find((r) => r.symbol === 'IDEA')!;
    expect(applyQuote(idea, undefined)).to.deep.include({ total_current_value: null, total_pnl: null });
    const summary = livePortfolioSummary(rows, (key) =>
      key === 'NSE:SBIN' ? { ltp: 1000, prevClose: null } : undefined,
    );
    expect(summary).to.deep.include({
      total_investment: 9000 + 7410,
      total_current_value: 10000,
      total_pnl: 1000,
      unpriced_count: 1,
    });
    expect(summary.total_pnl_percent).to.be.closeTo((1000 / 9000) * 100, 1e-9);
  });

  it('agrees with the totals of the server-presented snapshot at the same prices', () => {
    const base = (id: string, symbol: string, quantity: number, average_price: number) => ({
      id,
      symbol,
      exchange: 'NSE',
      isin: null,
      company_name: symbol,
      listed: true,
      quantity,
      average_price,
      broker_account_id: 'zerodha',
      broker_name: 'Zerodha',
      broker_type: 'CSV_IMPORT',
      account_label: '',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
    const quote = { ltp: 1000, prevClose: 990, asOf: 0, delayMinutes: 0, stale: false, unavailable: false };
    const presented = [
      presentHolding(base('1', 'SBIN', 10, 900), quote),
      presentHolding(base('2', 'IDEA', 1000, 7.41), null),
    ] as RawHolding[];
    expect(presented[1]).to.deep.include({ current_price: null, market_value: null, pnl: null });
    const server = portfolioSummary(aggregateHoldings(presented));
    const live = livePortfolioSummary(rows, (key) => (key === 'NSE:SBIN' ? quote : undefined));
    expect(server).to.deep.include({
      total_investment: live.total_investment,
      total_current_value: live.total_current_value,
      total_pnl: live.total_pnl,
      unpriced_count: live.unpriced_count,
    });
  });
});
