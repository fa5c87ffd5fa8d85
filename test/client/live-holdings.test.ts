import { aggregateHoldings } from '@app/common/portfolio/aggregate';
import type { RawHolding } from '@app/common/portfolio/types';
import { expect } from 'chai';
import { applyQuote, dayChangeOf, livePortfolioSummary } from '../../client/src/live/liveHoldings.ts';

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
    expect(dayChangeOf(10, { ltp: 100, prevClose: null })).to.equal(null);
    expect(dayChangeOf(10, undefined)).to.equal(null);
    expect(dayChangeOf(10, { ltp: 105, prevClose: 100 })).to.deep.equal({ amount: 50, percent: 5 });
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
