/**
 * Stand-ins for the exchanges' master files (`../shared/data/`), written from the listed universe
 * the app ships (`server/snapshot/instruments.json`, itself parsed from those files): the same
 * headers, column order, quoting, trailing commas, CRLF and stray Windows-1252 bytes, with listing
 * dates, lots and face values made up. Parsing them back gives the snapshot's instruments.
 */
import { readFileSync } from 'node:fs';
import { csvLine, exchangeDate } from './csv.ts';

/** `[exchange, symbol, name, isin, kind, series, scrip code]`; renames `[old, new, company, date]`. */
interface Snapshot {
  instruments: [string, string, string, string, string, string, string][];
  renames: [string, string, string, string][];
}

const snapshot = (): Snapshot =>
  JSON.parse(readFileSync(new URL('../../../server/snapshot/instruments.json', import.meta.url), 'utf8'));

const rowsOf = (exchange: string, kind: string) =>
  snapshot().instruments.filter(([e, , , , k]) => e === exchange && k === kind);

/** NSE's EQUITY_L.csv: every header after the first with a leading space. */
export function nseEquityList(): string {
  const header =
    'SYMBOL,NAME OF COMPANY, SERIES, DATE OF LISTING, PAID UP VALUE, MARKET LOT, ISIN NUMBER, FACE VALUE';
  const rows = rowsOf('NSE', 'EQUITY').map(([, symbol, name, isin, , series]) =>
    csvLine([symbol, name, series, '01-JAN-2000', 10, 1, isin, 10]),
  );
  return [header, ...rows, ''].join('\n');
}

/** NSE's SME_EQUITY_L.csv: underscored headers, a trailing comma on every line. */
export function nseSmeList(): string {
  const header = 'SYMBOL,NAME_OF_COMPANY,SERIES,DATE_OF_LISTING,PAID_UP_VALUE,ISIN_NUMBER,FACE_VALUE,';
  const rows = rowsOf('NSE', 'SME').map(
    ([, symbol, name, isin, , series]) => `${csvLine([symbol, name, series, '15-May-26', 10, isin, 10])},`,
  );
  return [header, ...rows, ''].join('\n');
}

/**
 * NSE's eq_etfseclist.csv as bytes: some names quoted with a stray tab inside, INFRA's spaces as
 * Windows-1252 no-break spaces (0xA0) and GROWWPSE's dash as 0x96, as NSE writes them.
 */
export function nseEtfList(): Uint8Array {
  const header = 'Symbol,Underlying,SecurityName,DateofListing,MarketLot,ISINNumber,FaceValue';
  const rows = rowsOf('NSE', 'ETF').map(([, symbol, name, isin], i) => {
    const underlying =
      symbol === 'INFRA' ? name.replaceAll(' ', '\u00a0') : i % 10 === 3 ? `${name}\t` : name;
    return csvLine([
      symbol,
      underlying,
      `AMC - ${symbol}`,
      exchangeDate('2022-08-16', 'DD-Mon-YY'),
      1,
      isin,
      10,
    ]);
  });
  return windows1252([header, ...rows, ''].join('\n'));
}

/** NSE's symbolchange.csv: no header row; `company, old symbol, new symbol, DD-MON-YYYY`. */
export function nseSymbolChanges(): string {
  const rows = snapshot().renames.map(([oldSymbol, newSymbol, company, changedOn]) =>
    csvLine([company, oldSymbol, newSymbol, exchangeDate(changedOn, 'DD-MON-YYYY')]),
  );
  return [...rows, ''].join('\n');
}

/** BSE's List of Scrips: CRLF, a trailing comma on every row, names with commas quoted. */
export function bseScripList(): string {
  const header =
    'Security Code,Issuer Name,Security Id,Security Name,Status,Group,Face Value,ISIN No,Industry,Instrument,Sector Name,Industry New Name,Igroup Name,ISubgroup Name';
  const rows = rowsOf('BSE', 'EQUITY').map(([, symbol, name, isin, , group, scripCode], i) => {
    // BSE ends some issuer names with a comma (`"Ambalal Sarabhai Enterprise Ltd.,"`).
    const issuer = i % 4 === 3 ? `${name},` : name;
    const cells = [scripCode, issuer, symbol, name.toUpperCase(), 'Active', `${group} `, '10.00', isin];
    const sector = [
      'Trading - Gas',
      'Equity',
      'Energy',
      'Oil, Gas & Consumable Fuels',
      'Gas',
      'Trading - Gas',
    ];
    return `${csvLine([...cells, ...sector])},`;
  });
  return [header, ...rows, ''].join('\r\n');
}

/** Latin-1 bytes, with `–` as Windows-1252's 0x96 (what NSE's files hold). */
function windows1252(text: string): Uint8Array {
  const latin1 = text.replaceAll('–', '\u0096');
  if ([...latin1].some((char) => char.charCodeAt(0) > 0xff))
    throw new Error('a character Windows-1252 cannot write');
  return Buffer.from(latin1, 'latin1');
}
