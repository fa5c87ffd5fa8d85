import { isBlankRow, parseCsv } from '../holdings/csv.ts';

/** A CSV file read as records keyed by normalised header name. */
export interface CsvTable {
  headers: string[];
  records: CsvRecord[];
}

/** Cell lookup by normalised header name; missing cells read as an empty string. */
export type CsvRecord = (header: string) => string;

/** Upper-cases a header and collapses spaces and underscores: ` ISIN NUMBER`, `ISIN_NUMBER` → `ISIN NUMBER`. */
export function normaliseMasterHeader(header: string): string {
  return header
    .trim()
    .replace(/[\s_]+/g, ' ')
    .toUpperCase();
}

/** Reads an exchange master file whose first line is a header row; blank lines are dropped. */
export function readMasterTable(text: string): CsvTable {
  const rows = parseCsv(text).filter((row) => !isBlankRow(row));
  const headers = (rows[0] ?? []).map(normaliseMasterHeader);
  const position = new Map(headers.map((name, index) => [name, index]));
  const records = rows.slice(1).map((row): CsvRecord => {
    return (header) => {
      const index = position.get(header);
      return index === undefined ? '' : (row[index] ?? '').trim();
    };
  });
  return { headers, records };
}

/** An exchange master file that does not have the layout its parser expects. */
export class MasterFileError extends Error {
  constructor(
    readonly fileKind: string,
    readonly missingColumns: readonly string[],
  ) {
    super(`${fileKind}: missing column(s) ${missingColumns.join(', ')}`);
    this.name = 'MasterFileError';
  }
}

/** Throws a {@link MasterFileError} when a master file lacks a column the parser needs. */
export function requireHeaders(table: CsvTable, required: readonly string[], fileKind: string): void {
  const missing = required.filter((name) => !table.headers.includes(name));
  if (missing.length > 0) throw new MasterFileError(fileKind, missing);
}

const MONTHS: Record<string, string> = {
  JAN: '01',
  FEB: '02',
  MAR: '03',
  APR: '04',
  MAY: '05',
  JUN: '06',
  JUL: '07',
  AUG: '08',
  SEP: '09',
  OCT: '10',
  NOV: '11',
  DEC: '12',
};

/**
 * Converts exchange dates `09-APR-2025` / `15-May-26` to ISO `2025-04-09` / `2026-05-15`.
 * Two-digit years above 50 are read as 19xx, the rest as 20xx. Returns undefined for other text.
 */
export function exchangeDateToIso(raw: string): string | undefined {
  const match = /^(\d{1,2})-([A-Za-z]{3})-(\d{2}|\d{4})$/.exec(raw.trim());
  if (!match) return undefined;
  const [, day = '', monthName = '', year = ''] = match;
  const month = MONTHS[monthName.toUpperCase()];
  if (!month) return undefined;
  const century = Number(year) > 50 ? '19' : '20';
  const fullYear = year.length === 2 ? `${century}${year}` : year;
  return `${fullYear}-${month}-${day.padStart(2, '0')}`;
}

/**
 * Decodes a downloaded master file. Exchange files are UTF-8 but some carry stray Windows-1252
 * bytes (an en dash or no-break space in the ETF list), so strict UTF-8 is tried first.
 */
export function decodeMasterFile(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return decodeWindows1252(bytes);
  }
}

/**
 * Windows-1252's bytes 0x80–0x9F (the WHATWG table; the five it leaves undefined stay as their
 * code points). Node 20's TextDecoder('windows-1252') decoded them as Latin-1 control
 * characters (0x96 as U+0096, not an en dash) and Node 22's does not, so the table is ours.
 */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8d,
  0x017d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a,
  0x0153, 0x9d, 0x017e, 0x0178,
];

function decodeWindows1252(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    const codes = Array.from(bytes.subarray(i, i + 8192), (b) =>
      b >= 0x80 && b <= 0x9f ? WINDOWS_1252_HIGH[b - 0x80]! : b,
    );
    text += String.fromCharCode(...codes);
  }
  return text;
}
