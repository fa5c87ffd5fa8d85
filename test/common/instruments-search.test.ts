import { expect } from 'chai';
import { parseBseScripList } from '../../common/src/instruments/bse.ts';
import { parseNseEquityList, parseNseEtfList, parseNseSmeList } from '../../common/src/instruments/nse.ts';
import { buildSearchIndex, searchInstruments } from '../../common/src/instruments/search.ts';
import { STARTER_INSTRUMENTS } from '../../common/src/instruments/starter.ts';
import { decodeMasterFile } from '../../common/src/instruments/table.ts';
import type { Instrument } from '../../common/src/instruments/types.ts';
import { readShared, readSharedBytes } from '../helpers/shared-data.ts';

const nseEquity = parseNseEquityList(readShared('data/EQUITY_L_2026-07-10.csv'));
const nseEtfs = parseNseEtfList(decodeMasterFile(readSharedBytes('data/eq_etfseclist_2026-05-17.csv')));
const nseSme = parseNseSmeList(readShared('data/SME_EQUITY_L_head50_2026-05-17.csv'));
const bseHead = parseBseScripList(readShared('data/BSE_Equity_head60.csv'));
const starterBse = STARTER_INSTRUMENTS.filter((item) => item.exchange === 'BSE');
const master: Instrument[] = [...nseEquity, ...nseEtfs, ...nseSme, ...bseHead, ...starterBse];

describe('instrument search', () => {
  const index = buildSearchIndex(master);
  const symbols = (items: readonly Instrument[]): string[] =>
    items.map((item) => `${item.symbol}:${item.exchange}`);

  it("ranks RELIANCE first for 'reli', then shorter symbols before longer", () => {
    const results = searchInstruments(index, 'reli');
    expect(results).to.have.length(5);
    expect(symbols(results).slice(0, 2)).to.deep.equal(['RELIANCE:NSE', 'RELIANCE:BSE']);
    const lengths = results
      .slice(2)
      .filter((item) => item.symbol.startsWith('RELI'))
      .map((item) => item.symbol.length);
    expect(lengths).to.deep.equal([...lengths].sort((a, b) => a - b));
  });

  it('ranks by length then alphabet when no symbol is prominent', () => {
    const plain = buildSearchIndex(master, []);
    expect(symbols(searchInstruments(plain, 'reli', { exchange: 'NSE', limit: 3 }))).to.deep.equal([
      'RELIABLE:NSE',
      'RELIANCE:NSE',
      'RELIGARE:NSE',
    ]);
  });

  it('finds HDFCBANK by its ISIN, on both exchanges', () => {
    expect(symbols(searchInstruments(index, 'INE040A01034'))).to.deep.equal(['HDFCBANK:NSE', 'HDFCBANK:BSE']);
    expect(symbols(searchInstruments(index, 'ine040a01034', { exchange: 'BSE' }))).to.deep.equal([
      'HDFCBANK:BSE',
    ]);
  });

  it('puts an exact symbol before longer ones and NSE before BSE', () => {
    expect(symbols(searchInstruments(index, 'sbin', { limit: 2 }))).to.deep.equal(['SBIN:NSE', 'SBIN:BSE']);
    expect(symbols(searchInstruments(index, 'ITC'))[0]).to.equal('ITC:NSE');
  });

  it('falls back to words of the company name', () => {
    expect(symbols(searchInstruments(index, 'infosys'))[0]).to.equal('INFY:NSE');
    expect(symbols(searchInstruments(index, 'hdfc bank', { exchange: 'NSE' }))).to.include('HDFCBANK:NSE');
    expect(symbols(searchInstruments(index, 'mahindra mahindra'))[0]).to.equal('M&M:NSE');
    expect(searchInstruments(index, 'junior bees').map((item) => item.symbol)).to.include('JUNIORBEES');
  });

  it('filters by exchange, honours the limit and never repeats an instrument', () => {
    const bse = searchInstruments(index, 'b', { exchange: 'BSE', limit: 50 });
    expect(bse.every((item) => item.exchange === 'BSE')).to.equal(true);
    const many = searchInstruments(index, 'a', { limit: 40 });
    expect(many).to.have.length(40);
    expect(new Set(many).size).to.equal(40);
    const sbin = symbols(searchInstruments(index, 'sbin', { limit: 10 }));
    expect(sbin.filter((key) => key === 'SBIN:BSE')).to.have.length(1);
    expect(searchInstruments(index, '   ')).to.deep.equal([]);
    expect(searchInstruments(index, 'zzzzqqq')).to.deep.equal([]);
  });

  it('answers quickly over a master of ~12,000 instruments', () => {
    const big = buildSearchIndex([
      ...master,
      ...Array.from({ length: 9000 }, (_, i) => ({
        ...nseEquity[i % nseEquity.length]!,
        exchange: 'BSE' as const,
        symbol: `X${i}`,
      })),
    ]);
    const queries = [
      'reli',
      'tata',
      'a',
      'hdfc bank',
      'INE002A01018',
      'nifty',
      'zz',
      'bank',
      'x12',
      'infosys',
    ];
    const started = performance.now();
    for (let round = 0; round < 100; round += 1) {
      for (const query of queries) searchInstruments(big, query);
    }
    expect(performance.now() - started).to.be.below(1500);
  });
});

describe('starter instrument list', () => {
  const equityBySymbol = new Map(nseEquity.map((item) => [item.symbol, item]));
  const etfBySymbol = new Map(nseEtfs.map((item) => [item.symbol, item]));
  const nse = STARTER_INSTRUMENTS.filter((item) => item.exchange === 'NSE');

  it('holds the NIFTY 100 and about twenty ETFs on NSE, and large caps on BSE', () => {
    expect(nse.filter((item) => item.kind === 'EQUITY')).to.have.length(100);
    expect(nse.filter((item) => item.kind === 'ETF').length).to.be.within(18, 25);
    expect(starterBse.length).to.be.within(25, 35);
    const keys = STARTER_INSTRUMENTS.map((item) => `${item.exchange}:${item.symbol}`);
    expect(new Set(keys).size).to.equal(keys.length);
  });

  it('uses current symbols that exist in the exchange files, with matching ISINs', () => {
    for (const item of nse) {
      const listed = item.kind === 'ETF' ? etfBySymbol.get(item.symbol) : equityBySymbol.get(item.symbol);
      expect(listed, item.symbol).to.not.equal(undefined);
      expect(item.isin, item.symbol).to.equal(listed?.isin);
    }
    const symbols = nse.map((item) => item.symbol);
    expect(symbols).to.include.members(['ETERNAL', 'TMPV', 'LTM']);
    expect(symbols).to.not.include.members(['ZOMATO', 'TATAMOTORS', 'LTIM']);
  });

  it('gives BSE entries the NSE ISIN and a scrip code that agrees with the BSE file', () => {
    const nseIsin = new Map(nse.map((item) => [item.symbol, item.isin]));
    const bseCode = new Map(bseHead.map((item) => [item.symbol, item.scripCode]));
    for (const item of starterBse) {
      expect(item.isin, item.symbol).to.equal(nseIsin.get(item.symbol));
      expect(item.scripCode, item.symbol).to.match(/^5\d{5}$/);
      if (bseCode.has(item.symbol)) expect(item.scripCode, item.symbol).to.equal(bseCode.get(item.symbol));
    }
  });

  it('has a plausible positive base price for everything', () => {
    expect(STARTER_INSTRUMENTS.every((item) => item.basePrice > 1 && item.basePrice < 100_000)).to.equal(
      true,
    );
  });
});
