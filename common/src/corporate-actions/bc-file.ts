/**
 * NSE's corporate-actions file, `bcDDMMYYYY.csv` in the daily `PR` bundle: one row per series
 * of a security (EQ, BE, T0 … list the same event), with the columns
 * `SERIES,SYMBOL,SECURITY,RECORD_DT,BC_STRT_DT,BC_END_DT,EX_DT,ND_STRT_DT,ND_END_DT,PURPOSE`.
 * Rows of debt series (NCDs, T-bills, gold bonds), rows without an ex-date and purposes that
 * change nothing for an equity holder (dividends, interest, AGMs) are left out; the same
 * event on several series is kept once.
 */
import { parseCsv, isBlankRow } from '../holdings/csv.ts';
import { readPurpose, type CorporateActionKind } from './purpose.ts';

/**
 * Equity series: rolling (EQ), trade-for-trade (BE, BZ), block (BL), SME (SM, ST, SZ), T+0
 * settlement (T0) and IQ. Everything else in the file is debt or a bond.
 */
export const EQUITY_SERIES: ReadonlySet<string> = new Set([
  'EQ',
  'BE',
  'BZ',
  'BL',
  'SM',
  'ST',
  'SZ',
  'T0',
  'IQ',
]);

const REQUIRED_COLUMNS = ['SERIES', 'SYMBOL', 'EX_DT', 'PURPOSE'] as const;

export interface ParsedCorporateAction {
  exchange: 'NSE';
  symbol: string;
  /** The company's name as the file writes it. */
  security: string;
  kind: CorporateActionKind;
  ratio: number | null;
  purpose: string;
  /** `YYYY-MM-DD`. */
  exDate: string;
  recordDate: string | null;
}

export interface BcFile {
  actions: ParsedCorporateAction[];
  /** Equity rows with an ex-date whose purpose names nothing we act on (dividends, AGMs …). */
  ignored: number;
}

/** A header the file must have; thrown with the missing columns named. */
export class BcFileError extends Error {}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const pad = (n: number) => String(n).padStart(2, '0');

/** `2025-12-19`, `19-Dec-2025`, `19-DEC-25` or `19/12/2025` as `2025-12-19`; null when not a date. */
export function bcDate(text: string | undefined): string | null {
  const t = (text ?? '').trim().toUpperCase();
  let y: number, m: number, d: number;
  let match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (match) [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else if ((match = /^(\d{1,2})-([A-Z]{3})-(\d{2}|\d{4})$/.exec(t))) {
    [d, m, y] = [Number(match[1]), MONTHS.indexOf(match[2]!) + 1, Number(match[3])];
    if (y < 100) y += 2000;
  } else if ((match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t))) {
    [d, m, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  } else return null;
  const iso = `${y}-${pad(m)}-${pad(d)}`;
  const back = new Date(`${iso}T00:00:00Z`);
  return m >= 1 && !Number.isNaN(back.getTime()) && back.toISOString().slice(0, 10) === iso ? iso : null;
}

/** Reads a `bc` file's text. Throws BcFileError when a required column is missing. */
export function parseBcFile(text: string): BcFile {
  const rows = parseCsv(text).filter((row) => !isBlankRow(row));
  const header = (rows.shift() ?? []).map((cell) => cell.trim().toUpperCase());
  const missing = REQUIRED_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length > 0) {
    throw new BcFileError(`Not an NSE corporate-actions (bc) file: no ${missing.join(', ')} column`);
  }
  const at = (row: string[], column: string) => (row[header.indexOf(column)] ?? '').trim();
  const seen = new Set<string>();
  const actions: ParsedCorporateAction[] = [];
  let ignored = 0;
  for (const row of rows) {
    const exDate = bcDate(at(row, 'EX_DT'));
    if (!EQUITY_SERIES.has(at(row, 'SERIES').toUpperCase()) || !exDate) continue;
    const symbol = at(row, 'SYMBOL').toUpperCase();
    const purpose = at(row, 'PURPOSE').replace(/\s+/g, ' ');
    const events = readPurpose(purpose);
    if (events.length === 0) ignored += 1;
    for (const event of events) {
      const key = `${symbol}|${exDate}|${event.kind}`;
      if (seen.has(key)) continue;
      seen.add(key);
      actions.push({
        exchange: 'NSE',
        symbol,
        security: at(row, 'SECURITY'),
        kind: event.kind,
        ratio: event.ratio,
        purpose,
        exDate,
        recordDate: bcDate(at(row, 'RECORD_DT')),
      });
    }
  }
  return { actions, ignored };
}
