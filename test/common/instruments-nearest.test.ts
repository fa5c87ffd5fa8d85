/** "Did you mean": the listed symbols a typo away from one the master does not list (issue 28, item 10). */
import { expect } from 'chai';
import { parseNseEquityList } from '../../common/src/instruments/nse.ts';
import { editDistance, nearestSymbols } from '../../common/src/instruments/nearest.ts';
import { buildSearchIndex } from '../../common/src/instruments/search.ts';
import { STARTER_INSTRUMENTS } from '../../common/src/instruments/starter.ts';
import type { Instrument } from '../../common/src/instruments/types.ts';
import { readShared } from '../helpers/shared-data.ts';

const nseEquity = parseNseEquityList(readShared('data/EQUITY_L_2026-07-10.csv'));
const starterBse = STARTER_INSTRUMENTS.filter((item) => item.exchange === 'BSE');
const index = buildSearchIndex([...nseEquity, ...starterBse]);
const symbols = (items: readonly Instrument[]) => items.map((i) => `${i.symbol}:${i.exchange}`);

describe('instruments: the nearest listed symbols', () => {
  it('offers RELIANCE for RELIANSE, once, on NSE when the file names no exchange', () => {
    expect(symbols(nearestSymbols(index, 'RELIANSE'))[0]).to.equal('RELIANCE:NSE');
    expect(symbols(nearestSymbols(index, 'reliance '))).to.not.include('RELIANCE:NSE');
    expect(symbols(nearestSymbols(index, 'RELIANSE', { exchange: 'BSE' }))[0]).to.equal('RELIANCE:BSE');
  });

  it('counts a swap of neighbours as one typo (INFY typed INYF), and offers nothing far away', () => {
    expect(editDistance('INYF', 'INFY', 1)).to.equal(1);
    expect(symbols(nearestSymbols(index, 'INYF'))).to.include('INFY:NSE');
    expect(nearestSymbols(index, 'ZQXVWK')).to.deep.equal([]);
  });

  it('offers at most three, nearest first, and never the symbol itself', () => {
    const near = nearestSymbols(index, 'TCSS');
    expect(near.length).to.be.within(1, 3);
    expect(symbols(near)[0]).to.equal('TCS:NSE');
    expect(symbols(nearestSymbols(index, 'TCS'))).to.not.include('TCS:NSE');
  });
});
