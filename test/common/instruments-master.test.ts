import { expect } from 'chai';
import { parseBseScripList } from '../../common/src/instruments/bse.ts';
import {
  parseNseEquityList,
  parseNseEtfList,
  parseNseSmeList,
  parseNseSymbolChanges,
} from '../../common/src/instruments/nse.ts';
import { currentSymbol, resolveRenames } from '../../common/src/instruments/renames.ts';
import { decodeMasterFile, MasterFileError } from '../../common/src/instruments/table.ts';
import { yahooSymbol } from '../../common/src/instruments/yahoo.ts';
import type { SymbolChange } from '../../common/src/instruments/types.ts';
import { dataLineCount, readShared, readSharedBytes } from '../helpers/shared-data.ts';

/** ISO 6166: country, nine characters, check digit (DVR shares carry IN9... numbers). */
const ISIN = /^IN[A-Z0-9]{9}\d$/;
const EQUITY_L = 'data/EQUITY_L_2026-07-10.csv';
const ETF_LIST = 'data/eq_etfseclist_2026-05-17.csv';
const SME_LIST = 'data/SME_EQUITY_L_head50_2026-05-17.csv';
const SYMBOL_CHANGES = 'data/symbolchange_2026-05-17.csv';
const BSE_LIST = 'data/BSE_Equity_head60.csv';

describe('NSE master files (real downloads)', () => {
  it('parses every line of EQUITY_L', () => {
    const text = readShared(EQUITY_L);
    const list = parseNseEquityList(text);
    expect(list).to.have.length(dataLineCount(text)).and.to.have.length(2384);
    expect(
      list.every((item) => ISIN.test(item.isin) && item.kind === 'EQUITY' && item.exchange === 'NSE'),
    ).to.equal(true);
    expect(new Set(list.map((item) => item.series))).to.deep.equal(new Set(['EQ', 'BE', 'BZ']));
    expect(list.find((item) => item.symbol === 'RELIANCE')).to.deep.equal({
      exchange: 'NSE',
      symbol: 'RELIANCE',
      name: 'Reliance Industries Limited',
      isin: 'INE002A01018',
      series: 'EQ',
      kind: 'EQUITY',
    });
  });

  it('parses the SME list despite its trailing commas', () => {
    const text = readShared(SME_LIST);
    const list = parseNseSmeList(text);
    expect(list).to.have.length(dataLineCount(text));
    expect(list[0]).to.deep.equal({
      exchange: 'NSE',
      symbol: 'SIMCA',
      name: 'Simca Advertising Limited',
      isin: 'INE1K4J01018',
      series: 'ST',
      kind: 'SME',
    });
    expect(list.every((item) => item.kind === 'SME' && ISIN.test(item.isin))).to.equal(true);
  });

  it('parses the ETF list with readable names', () => {
    const text = decodeMasterFile(readSharedBytes(ETF_LIST));
    const list = parseNseEtfList(text);
    expect(list).to.have.length(dataLineCount(text));
    const byName = new Map(list.map((item) => [item.symbol, item.name]));
    expect(byName.get('NIFTYBEES')).to.equal('Nifty 50');
    expect(byName.get('BANKBEES')).to.equal('Nifty Bank');
    expect(byName.get('JUNIORBEES')).to.equal('Nippon India ETF Nifty Next 50 Junior BeES');
    expect(byName.get('MNC')).to.equal('Kotak Nifty MNCETF');
    expect(
      list.every((item) => item.kind === 'ETF' && ISIN.test(item.isin) && !/\t/.test(item.name)),
    ).to.equal(true);
  });

  it('decodes the stray Windows-1252 bytes of the ETF list', () => {
    const text = decodeMasterFile(readSharedBytes(ETF_LIST));
    expect(text).not.to.include('\uFFFD');
    const infra = parseNseEtfList(text).find((item) => item.symbol === 'INFRA');
    expect(infra?.name).to.equal('Nifty India Infrastructure & Logistics');
    expect(decodeMasterFile(new TextEncoder().encode('₹ SYMBOL'))).to.equal('₹ SYMBOL');
    // The ETF list's 0x96 is an en dash on every Node (Node 20's TextDecoder gave U+0096).
    const growwPse = parseNseEtfList(text).find((item) => item.symbol === 'GROWWPSE');
    expect(growwPse?.name).to.equal('Nifty PSE Index – TRI');
    expect(decodeMasterFile(Uint8Array.from([0x80, 0x20, 0x96, 0x20, 0x9d, 0xe9]))).to.equal('€ – \u009dé');
  });

  it('parses the header-less symbol change file', () => {
    const text = readShared(SYMBOL_CHANGES);
    const changes = parseNseSymbolChanges(text);
    expect(changes).to.have.length(dataLineCount(text, 0)).and.to.have.length(1029);
    expect(changes.find((change) => change.oldSymbol === 'ZOMATO')).to.deep.equal({
      oldSymbol: 'ZOMATO',
      newSymbol: 'ETERNAL',
      companyName: 'ETERNAL LIMITED',
      changedOn: '2025-04-09',
    });
  });

  it('refuses a file without the expected columns', () => {
    expect(() => parseNseEquityList('SYMBOL,NAME\nX,Y')).to.throw(MasterFileError, 'ISIN NUMBER');
  });
});

describe('symbol renames', () => {
  const renames = resolveRenames(parseNseSymbolChanges(readShared(SYMBOL_CHANGES)));

  it('maps retired symbols to the current one, following chains', () => {
    expect(renames.get('ZOMATO')).to.equal('ETERNAL');
    expect(renames.get('TATAMOTORS')).to.equal('TMPV');
    expect(renames.get('TELCO')).to.equal('TMPV');
    expect(renames.get('LTI')).to.equal('LTM');
    expect(currentSymbol(' zomato ', renames)).to.equal('ETERNAL');
    expect(currentSymbol('RELIANCE', renames)).to.equal('RELIANCE');
  });

  it('ignores self-renames and stops on cycles', () => {
    expect(renames.has('QUALITY30')).to.equal(false);
    const change = (oldSymbol: string, newSymbol: string, changedOn: string): SymbolChange => ({
      oldSymbol,
      newSymbol,
      companyName: '',
      changedOn,
    });
    const looped = resolveRenames([change('A', 'B', '2020-01-01'), change('B', 'A', '2021-01-01')]);
    expect(looped.get('A')).to.equal('B');
    expect(looped.get('B')).to.equal('A');
  });

  it('does not follow a step dated before the rename that led to it', () => {
    const reused = resolveRenames([
      { oldSymbol: 'OLDCO', newSymbol: 'NEWCO', companyName: 'New Co', changedOn: '2024-01-01' },
      { oldSymbol: 'NEWCO', newSymbol: 'OTHER', companyName: 'Other', changedOn: '2010-01-01' },
    ]);
    expect(reused.get('OLDCO')).to.equal('NEWCO');
  });
});

describe('BSE scrip list', () => {
  it('parses the real download, trailing commas and quoted names included', () => {
    const text = readShared(BSE_LIST);
    const list = parseBseScripList(text);
    expect(list).to.have.length(dataLineCount(text));
    expect(list[0]).to.deep.equal({
      exchange: 'BSE',
      symbol: 'ABB',
      scripCode: '500002',
      name: 'ABB India Limited',
      isin: 'INE117A01022',
      series: 'A',
      kind: 'EQUITY',
    });
    expect(list.find((item) => item.scripCode === '500009')?.name).to.equal(
      'Ambalal Sarabhai Enterprise Ltd.',
    );
    expect(list.find((item) => item.symbol === 'SBIN')?.scripCode).to.equal('500112');
  });

  it('keeps only active equity scrips', () => {
    const text = [
      'Security Code,Issuer Name,Security Id,Security Name,Status,Group,Face Value,ISIN No,Industry,Instrument,',
      '500325,Reliance Industries Ltd,RELIANCE,RELIANCE INDUSTRIES LTD.,Active,A ,10.00,INE002A01018,Refineries,Equity,',
      '500111,Reliance Capital Ltd,RELCAPITAL,RELIANCE CAPITAL LTD.,Suspended,Z ,10.00,INE013A01015,Finance,Equity,',
      '700123,Some Bank Ltd,SOMEPREF,SOME BANK PREF,Active,F ,100.00,INE999Z04011,Bank,Preference Shares,',
    ].join('\r\n');
    expect(parseBseScripList(text).map((item) => item.symbol)).to.deep.equal(['RELIANCE']);
  });
});

describe('Yahoo symbols', () => {
  it('suffixes .NS for NSE; on BSE, the scrip code when known, else the Security Id', () => {
    expect(yahooSymbol('RELIANCE', 'NSE')).to.equal('RELIANCE.NS');
    expect(yahooSymbol('RELIANCE', 'BSE', { scripCode: '500325' })).to.equal('500325.BO');
    expect(yahooSymbol('m&m', 'BSE')).to.equal('M&M.BO');
    expect(yahooSymbol('m&m', 'BSE', { scripCode: 'n/a' })).to.equal('M&M.BO');
  });
});
