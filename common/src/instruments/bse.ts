import { readMasterTable, requireHeaders } from './table.ts';
import type { Instrument } from './types.ts';

const CODE = 'SECURITY CODE';
const ISSUER = 'ISSUER NAME';
const SECURITY_ID = 'SECURITY ID';
const STATUS = 'STATUS';
const GROUP = 'GROUP';
const ISIN = 'ISIN NO';
const INSTRUMENT = 'INSTRUMENT';

/**
 * Parses BSE's "List of Scrips" download
 * (`Security Code,Issuer Name,Security Id,Security Name,Status,Group,Face Value,ISIN No,...,Instrument,...`
 * with a trailing comma on every data row). Keeps only active equity scrips; the symbol is the
 * Security Id (`RELIANCE`) and the numeric Security Code (`500325`) is kept as `scripCode`.
 */
export function parseBseScripList(text: string): Instrument[] {
  const table = readMasterTable(text);
  requireHeaders(table, [CODE, ISSUER, SECURITY_ID, STATUS, ISIN, INSTRUMENT], 'BSE scrip list');
  return table.records
    .filter(
      (cell) =>
        cell(SECURITY_ID) !== '' &&
        cell(STATUS).toUpperCase() === 'ACTIVE' &&
        cell(INSTRUMENT).toUpperCase() === 'EQUITY',
    )
    .map((cell) => ({
      exchange: 'BSE',
      symbol: cell(SECURITY_ID).toUpperCase(),
      scripCode: cell(CODE),
      name: cleanIssuerName(cell(ISSUER)),
      isin: cell(ISIN).toUpperCase(),
      series: cell(GROUP),
      kind: 'EQUITY',
    }));
}

/** BSE issuer names sometimes end with a stray comma (`"Ambalal Sarabhai Enterprise Ltd.,"`). */
function cleanIssuerName(name: string): string {
  return name.replace(/[\s,]+$/, '').replace(/\s+/g, ' ');
}
