import { stripBom } from '../holdings/csv.ts';
import { exchangeDateToIso, readMasterTable, requireHeaders } from './table.ts';
import type { CsvRecord } from './table.ts';
import type { Instrument, SymbolChange } from './types.ts';

/**
 * Parses NSE's main-board equity master `EQUITY_L.csv`
 * (`SYMBOL,NAME OF COMPANY, SERIES, ..., ISIN NUMBER, FACE VALUE`; headers after the first carry
 * a leading space).
 */
export function parseNseEquityList(text: string): Instrument[] {
  return parseNseCompanyList(text, 'EQUITY', 'NSE equity list');
}

/**
 * Parses NSE's Emerge (SME) master `SME_EQUITY_L.csv`
 * (`SYMBOL,NAME_OF_COMPANY,SERIES,DATE_OF_LISTING,PAID_UP_VALUE,ISIN_NUMBER,FACE_VALUE,` with a
 * trailing comma on every line).
 */
export function parseNseSmeList(text: string): Instrument[] {
  return parseNseCompanyList(text, 'SME', 'NSE SME list');
}

/** The equity and SME masters share their columns (spelt with spaces or underscores). */
function parseNseCompanyList(text: string, kind: 'EQUITY' | 'SME', label: string): Instrument[] {
  const table = readMasterTable(text);
  requireHeaders(table, ['SYMBOL', 'NAME OF COMPANY', 'SERIES', 'ISIN NUMBER'], label);
  return table.records.filter(hasSymbol).map((cell) => ({
    exchange: 'NSE',
    symbol: cell('SYMBOL').toUpperCase(),
    name: cell('NAME OF COMPANY'),
    isin: cell('ISIN NUMBER').toUpperCase(),
    series: cell('SERIES'),
    kind,
  }));
}

/**
 * Parses NSE's ETF list `eq_etfseclist.csv`
 * (`Symbol,Underlying,SecurityName,DateofListing,MarketLot,ISINNumber,FaceValue`). The name is the
 * more readable of Underlying and SecurityName.
 */
export function parseNseEtfList(text: string): Instrument[] {
  const table = readMasterTable(text);
  requireHeaders(table, ['SYMBOL', 'UNDERLYING', 'SECURITYNAME', 'ISINNUMBER'], 'NSE ETF list');
  return table.records.filter(hasSymbol).map((cell) => ({
    exchange: 'NSE',
    symbol: cell('SYMBOL').toUpperCase(),
    name: readableEtfName(cell('UNDERLYING'), cell('SECURITYNAME')),
    isin: cell('ISINNUMBER').toUpperCase(),
    kind: 'ETF',
  }));
}

/**
 * Parses NSE's `symbolchange.csv`, which has no header row:
 * `company name, old symbol, new symbol, date (DD-MON-YYYY)`.
 */
export function parseNseSymbolChanges(text: string): SymbolChange[] {
  const table = readMasterTable(`company,old,new,date\n${stripBom(text)}`);
  return table.records
    .filter((cell) => cell('OLD') !== '' && cell('NEW') !== '')
    .map((cell) => ({
      oldSymbol: cell('OLD').toUpperCase(),
      newSymbol: cell('NEW').toUpperCase(),
      companyName: cell('COMPANY').replace(/\s+/g, ' '),
      changedOn: exchangeDateToIso(cell('DATE')) ?? cell('DATE'),
    }));
}

function hasSymbol(cell: CsvRecord): boolean {
  return cell('SYMBOL') !== '';
}

/**
 * Picks a display name for an ETF. NSE's Underlying is usually the better text ("Nippon India ETF
 * Nifty Next 50 Junior BeES") but is often squashed ("NiftyBank"); SecurityName is mostly an AMC
 * code ("NIPINDETFBANKBEES"). Squashed camel case is split back into words.
 */
export function readableEtfName(underlying: string, securityName: string): string {
  const candidate = collapse(underlying) || collapse(securityName);
  if (candidate.includes(' ')) return candidate;
  return candidate
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .replace(/(\d)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Z]{2,})([A-Z][a-z])/g, '$1 $2');
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
