import { expect } from 'chai';
import { aggregateHoldings } from '../../common/src/portfolio/aggregate.ts';
import {
  dayChange,
  positionFigures,
  positionValues,
  round2,
  type PositionQuote,
} from '../../common/src/portfolio/position-math.ts';
import type { RawHolding } from '../../common/src/portfolio/types.ts';
import { applyQuote } from '../../client/src/live/liveHoldings.ts';
import { presentHolding, type HoldingBase } from '../../server/src/holdings/present.ts';

const base = (id: string, quantity: number, average_price: number): HoldingBase => ({
  id,
  symbol: 'ODD',
  exchange: 'NSE',
  isin: null,
  company_name: 'Odd Prices Ltd',
  listed: true,
  quantity,
  average_price,
  broker_account_id: `account-${id}`,
  broker_name: 'Zerodha',
  broker_type: 'CSV_IMPORT',
  account_label: '',
  updated_at: '2026-01-01T00:00:00.000Z',
});

const levels = (quote: PositionQuote) => ({
  ...quote,
  asOf: 0,
  delayMinutes: 0,
  stale: false,
  unavailable: false,
});

/** Awkward positions: binary-drift prices, half-paise products, a zero buy price, no usable previous close. */
const CASES: Array<{ name: string; accounts: HoldingBase[]; quote: PositionQuote }> = [
  {
    name: '0.1 + 0.2 style prices',
    accounts: [base('1', 3, 0.1)],
    quote: { ltp: 0.1 + 0.2, prevClose: 0.2 },
  },
  {
    name: 'half-paise products in two accounts',
    accounts: [base('1', 3, 7.4125), base('2', 10, 100.005)],
    quote: { ltp: 1.005, prevClose: 1.015 },
  },
  {
    name: 'a zero buy price (bonus shares)',
    accounts: [base('1', 7, 0)],
    quote: { ltp: 33.335, prevClose: 33.1 },
  },
  { name: 'no previous close', accounts: [base('1', 3, 19.99)], quote: { ltp: 20.015, prevClose: null } },
  { name: 'a previous close of 0', accounts: [base('1', 3, 19.99)], quote: { ltp: 20.015, prevClose: 0 } },
];

describe('position math: one rule for the server and the live client', () => {
  it('rounds every amount with three decimals half away from zero, as on paper', () => {
    // n / 1000 rupees is exactly n tenths of a paisa: the expected paise come from integers.
    const paper = (n: number) => (Math.sign(n) * Math.floor((Math.abs(n) + 5) / 10)) / 100;
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let i = 0; i < 20_000; i++) {
      const n = (next() % 2_000_000_000) - 1_000_000_000;
      if (round2(n / 1000) !== paper(n)) expect(round2(n / 1000), `${n / 1000}`).to.equal(paper(n));
    }
    expect(round2(1.005)).to.equal(1.01);
    expect(round2(-2.675)).to.equal(-2.68);
    expect(round2(0.1 + 0.2)).to.equal(0.3);
  });

  it('rounds each figure once, to paise, from the unrounded inputs', () => {
    expect(positionValues(3, 0.1, 0.1 + 0.2)).to.deep.equal({
      purchase_value: 0.3,
      market_value: 0.9,
      pnl: 0.6,
      pnl_percent: 200,
    });
    expect(positionValues(4, 0, 50)).to.deep.include({ purchase_value: 0, pnl: 200, pnl_percent: 0 });
    expect(positionValues(5, 1500, null)).to.deep.equal({
      purchase_value: 7500,
      market_value: null,
      pnl: null,
      pnl_percent: null,
    });
    expect(dayChange(3, { ltp: 1.005, prevClose: 1.015 })).to.deep.equal({ amount: -0.03, percent: -0.99 });
    expect(dayChange(3, { ltp: 20, prevClose: 0 })).to.equal(null);
    expect(positionFigures(3, 1, { ltp: 2, prevClose: null })).to.deep.include({
      day_change: null,
      day_change_percent: null,
    });
  });

  for (const { name, accounts, quote } of CASES) {
    it(`gives identical numbers on the server, in the snapshot and live: ${name}`, () => {
      const presented = accounts.map((h) => presentHolding(h, levels(quote)));
      const [snapshot] = aggregateHoldings(presented as RawHolding[]);
      // The live client: the snapshot loaded before any price, then the tick applied.
      const [unpriced] = aggregateHoldings(accounts.map((h) => presentHolding(h, null)) as RawHolding[]);
      const live = applyQuote(unpriced!, quote);

      expect(live).to.deep.equal(snapshot);
      live.accounts.forEach((account, i) => {
        const server = presented[i]!;
        expect(account).to.deep.include({
          purchase_value: server.purchase_value,
          market_value: server.market_value,
          pnl: server.pnl,
          pnl_percent: server.pnl_percent,
          day_change: server.day_change ?? 0,
        });
      });
      // A tick at the snapshot's own price changes no number.
      expect(applyQuote(snapshot!, quote)).to.deep.equal(snapshot);
    });
  }
});
