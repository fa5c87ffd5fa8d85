import { countFilledLines, isBlankRow, parseCsv, stripBom } from './csv.ts';
import { detectBrokerFormat, looksLikeHeaderRow, normaliseHeader } from './formats.ts';
import { locateColumns, missingColumnMessages } from './columns.ts';
import { isHoldingRow, readHoldingRow } from './rows.ts';
import {
  CSV_MESSAGES,
  MAX_IMPORT_LINES,
  MAX_IMPORT_ROWS,
  tooManyLinesMessage,
  tooManyRowsMessage,
} from './messages.ts';
import type { BrokerFormatId } from './formats.ts';
import type { DataRow, ImportRow } from './rows.ts';

export type ImportResult =
  | { ok: true; broker: BrokerFormatId; rows: ImportRow[]; accountHint?: string }
  | { ok: false; error: string; details: string[] };

/** Preamble labels whose neighbouring cell is the broker client ID (Console, Groww). */
const CLIENT_ID_LABELS = new Set(['client id', 'unique client code', 'client code', 'ucc']);

/**
 * Reads a holdings export (the generic template or a broker's own CSV: docs/holdings.md) into
 * import rows; see {@link parseHoldingsTable} for the rules.
 */
export function parseHoldingsCsv(text: string): ImportResult {
  if (stripBom(text).trim() === '') return failure(CSV_MESSAGES.empty);
  const tooLong = tooManyLines(text);
  if (tooLong) return failure(tooLong);
  return parseHoldingsTable(parseCsv(text));
}

/**
 * The refusal of a file with more than MAX_IMPORT_LINES lines, or null: counted in one pass
 * before any row is tokenised, so that a file of 200,000 rows costs milliseconds, not seconds.
 */
export function tooManyLines(text: string): string | null {
  const lines = countFilledLines(text);
  return lines > MAX_IMPORT_LINES ? tooManyLinesMessage(lines) : null;
}

/**
 * Reads the cell grid of a holdings export (CSV rows, or an XLSX sheet's rows as text).
 *
 * The header row is the first row naming a symbol/name column and a quantity column, so preamble
 * rows (client ID, summary) are passed over; the layout is recognised from that row. Blank lines,
 * total rows and rows without a symbol, name or ISIN are skipped. Fails with the documented messages:
 * empty input, no data row, missing columns, more than {@link MAX_IMPORT_ROWS} holdings, or any row
 * with a bad quantity, average price or exchange (all such rows listed in `details`).
 */
export function parseHoldingsTable(table: readonly (readonly string[])[]): ImportResult {
  const rows = table.map((row) => row.map(cleanCell)).filter((row) => !isBlankRow(row));
  if (rows.length === 0) return failure(CSV_MESSAGES.empty);
  if (rows.length < 2) return failure(CSV_MESSAGES.notEnoughRows);

  const headerIndex = Math.max(
    0,
    rows.findIndex((row) => looksLikeHeaderRow(row.map(normaliseHeader))),
  );
  const rawHeaders = rows[headerIndex] ?? [];
  const headers = rawHeaders.map(normaliseHeader);
  const preamble = rows.slice(0, headerIndex);
  const format = detectBrokerFormat({ headers, rawHeaders, preamble });
  if (format.refusal !== undefined) return failure(format.refusal);
  const columns = locateColumns(format, headers);
  const missing = missingColumnMessages(columns);
  if (missing.length > 0) return failure(missing[0] ?? CSV_MESSAGES.missingSymbol, missing);

  // Angel One repeats its header row under the first one: a row equal to the header is not data.
  const headerKey = headers.join('\u0000');
  const dataRows: DataRow[] = rows
    .slice(headerIndex + 1)
    .filter((cells) => cells.map(normaliseHeader).join('\u0000') !== headerKey)
    .map((cells, index) => ({ line: index + 1, cells }));
  const holdingRows = dataRows.filter((row) => isHoldingRow(row, columns, format.id !== 'generic'));
  if (holdingRows.length === 0) return failure(CSV_MESSAGES.notEnoughRows);
  if (holdingRows.length > MAX_IMPORT_ROWS) return failure(tooManyRowsMessage(holdingRows.length));

  const holdings: ImportRow[] = [];
  const errors: string[] = [];
  for (const row of holdingRows) {
    const result = readHoldingRow(row, columns);
    if (result.ok) holdings.push(result.holding);
    else errors.push(...result.errors);
  }
  if (errors.length > 0) return failure(CSV_MESSAGES.validationFailed, errors);

  const accountHint = findClientId(preamble);
  return accountHint === undefined
    ? { ok: true, broker: format.id, rows: holdings }
    : { ok: true, broker: format.id, rows: holdings, accountHint };
}

function failure(error: string, details: string[] = []): ImportResult {
  return { ok: false, error, details };
}

/** Trims a cell, drops a byte-order mark and removes stray quotes left around a value. */
function cleanCell(cell: string): string {
  const trimmed = stripBom(cell).trim();
  if (trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')) {
    return trimmed.slice(1, -1).trim();
  }
  return trimmed;
}

/**
 * Finds the client ID in the preamble: `Client ID,AB1234` (the first non-empty cell after the
 * label), or Angel One's `Client Name,Client ID` row with the values in the row below it.
 */
function findClientId(preamble: readonly string[][]): string | undefined {
  for (const [rowIndex, row] of preamble.entries()) {
    const labelIndex = row.findIndex((cell) => CLIENT_ID_LABELS.has(normaliseHeader(cell)));
    if (labelIndex < 0) continue;
    const value =
      row.slice(labelIndex + 1).find((cell) => cell !== '') ?? preamble[rowIndex + 1]?.[labelIndex];
    if (value) return value;
  }
  return undefined;
}
