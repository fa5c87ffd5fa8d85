/**
 * Pure helpers for reading a holdings file in the browser (unit-tested): which files the
 * dialog accepts, which XLSX sheet holds the holdings, and how a sheet's cells become CSV text
 * for `POST /api/holdings/upload-csv`.
 */
import { CSV_MESSAGES } from '@app/common/holdings/messages';

export type HoldingsFileKind = 'csv' | 'xlsx';

/** The spec's sentence, then what else is accepted. */
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
