/**
 * Pure helpers for reading a holdings file in the browser (unit-tested): which files the
 * dialog accepts, which XLSX sheet holds the holdings, and how a sheet's cells become CSV text
 * for `POST /api/holdings/upload-csv`.
 */
import { CSV_MESSAGES } from '@app/common/holdings/messages';

export type HoldingsFileKind = 'csv' | 'xlsx';

/** The documented sentence (docs/holdings.md#holdings-and-dashboard-screens), then what else is accepted. */
export const FILE_TYPE_MESSAGE = CSV_MESSAGES.notCsvFile;
export const FILE_TYPE_HINT = 'Excel holdings files (.xlsx) downloaded from your broker are accepted too.';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The `accept` attribute of the file input. */
export const ACCEPTED_FILES = `.csv,text/csv,.xlsx,${XLSX_TYPE}`;

/** `csv` or `xlsx` for a file the dialog can read (by name, or by type when the name says nothing); else null. */
export function holdingsFileKind(name: string, type: string): HoldingsFileKind | null {
  const lower = name.trim().toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.xlsx')) return 'xlsx';
  if (lower.includes('.')) return null;
  if (type === 'text/csv') return 'csv';
  if (type === XLSX_TYPE) return 'xlsx';
  return null;
}

/** The sentence for a chosen .csv that is empty. */
export const EMPTY_FILE_MESSAGE =
  'This file is empty: download your holdings from your broker again (in Kite: Holdings → Download → CSV) and choose the new file.';
/** The sentence for a PDF renamed .csv (a contract note or a statement). */
export const PDF_FILE_MESSAGE =
  'This looks like a PDF, not a CSV: download Holdings as CSV from your broker (in Kite: Holdings → Download → CSV) and choose that file.';

/**
 * What is wrong with a file named .csv, judged from its first bytes: empty, or a PDF (`%PDF`)
 * renamed; null when it may be text. An XLSX renamed .csv (`PK` of a zip) is read as XLSX instead.
 */
export function csvFileProblem(head: Uint8Array): string | null {
  if (head.length === 0) return EMPTY_FILE_MESSAGE;
  const text = String.fromCharCode(...head.subarray(0, 4));
  if (text === '%PDF') return PDF_FILE_MESSAGE;
  return null;
}

/** True when the file's first bytes are a zip's (an XLSX, whatever its name says). */
export function isZip(head: Uint8Array): boolean {
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

/** A sheet as read-excel-file returns it. */
export interface SheetLike {
  sheet: string;
  data: readonly (readonly unknown[])[];
}

/**
 * The sheet holding the holdings: Zerodha Console's `Equity` sheet when present (its workbook
 * also has Mutual Funds and Combined sheets), otherwise the first sheet with any content.
 */
export function pickHoldingsSheet<T extends SheetLike>(sheets: readonly T[]): T | undefined {
  return (
    sheets.find((s) => s.sheet.trim().toLowerCase() === 'equity') ??
    sheets.find((s) => s.data.some((row) => row.some((cell) => cellText(cell) !== ''))) ??
    sheets[0]
  );
}

/** A cell as text: numbers as written, dates as `YYYY-MM-DD`, empty cells as ''. */
export function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? '' : cell.toISOString().slice(0, 10);
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  if (typeof cell === 'string') return cell;
  if (typeof cell === 'boolean') return cell ? 'TRUE' : 'FALSE';
  return '';
}

/** One CSV field, quoted when it holds a comma, a quote, a line break or edge spaces. */
export function csvField(text: string): string {
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A grid of cells as CSV text (RFC 4180 quoting, `\n` line ends). */
export function cellsToCsv(rows: readonly (readonly unknown[])[]): string {
  return rows.map((row) => row.map((cell) => csvField(cellText(cell))).join(',')).join('\n');
}
