import { parseBrokerNumber, isPositiveNumber } from './numbers.ts';
import { csvRowMessage } from './messages.ts';
import { isWellFormedSymbol } from '../instruments/symbol.ts';
import { amountProblem, amountRequirement } from '../api/numbers.ts';
import { quantityProblem, quantityRequirement } from './quantity.ts';
import { toExchange } from '../instruments/types.ts';
import type { Exchange } from '../instruments/types.ts';
import type { ColumnPositions } from './columns.ts';

/** One holding read from a broker export, before it is matched to the instrument master. */
export interface ImportRow {
  /** 1-based data row number (blank lines not counted), as used in `Row N` messages. */
  line: number;
  /** Upper-case trading symbol without a series suffix (`IDEA-BE` → `IDEA`). */
  symbol?: string;
  isin?: string;
  companyName?: string;
  /** The file's exchange; NSE when the file names none (the server then asks the master). */
  exchange: Exchange;
  /** Present when the file itself named the exchange of this row. */
  exchangeFromFile?: true;
  quantity: number;
  averagePrice: number;
}

const SERIES_SUFFIX = /-(EQ|BE|BZ|BL|SM|ST)$/;
const ISIN = /^[A-Z]{2}[A-Z0-9]{9}\d$/;
/** ISINs of mutual fund units and ETFs. */
const FUND_ISIN = /^INF/;
const TOTAL_LABEL = /^(grand |sub ?)?totals?:?$/i;

/** Upper-cases a broker symbol and drops an NSE series suffix; `BAJAJ-AUTO` is left alone. */
export function cleanBrokerSymbol(raw: string): string {
  return raw.trim().toUpperCase().replace(SERIES_SUFFIX, '');
}

/** A data row of the table, with its 1-based number. */
export interface DataRow {
  line: number;
  cells: readonly string[];
}

/**
 * Whether a data row holds a holding. Rows without a symbol, name or ISIN are skipped, as are
 * summary rows labelled Total that carry no average price, and (in broker exports) note rows
 * with neither quantity nor price.
 */
export function isHoldingRow(row: DataRow, columns: ColumnPositions, isBrokerExport: boolean): boolean {
  const cell = (index: number | undefined): string => cellAt(row.cells, index);
  if (identityOf(row.cells, columns).label === '') return false;
  const price = cell(columns.averagePrice);
  const firstCell = row.cells.find((value) => value !== '') ?? '';
  if (TOTAL_LABEL.test(firstCell) && !isPositiveNumber(parseBrokerNumber(price))) return false;
  const quantityEmpty = columns.quantity.every((index) => cell(index) === '');
  return !(isBrokerExport && quantityEmpty && price === '');
}

/** Reads and validates one data row; returns the holding or the row's error messages. */
export function readHoldingRow(
  row: DataRow,
  columns: ColumnPositions,
): { ok: true; holding: ImportRow } | { ok: false; errors: string[] } {
  const { symbol, companyName, isin, label } = identityOf(row.cells, columns);
  const cell = (index: number | undefined): string => cellAt(row.cells, index);
  const quantity = sumQuantity(columns.quantity.map((index) => cell(index)));
  const averagePrice = parseBrokerNumber(cell(columns.averagePrice));
  const exchangeText = cell(columns.exchange);
  const exchange = exchangeText === '' ? 'NSE' : toExchange(exchangeText);

  const errors: string[] = [];
  // A fund's units come in fractions: such a row is left for the server to name as a mutual fund
  // (or, for a listed ETF, to refuse its fraction after matching: fractionalRowProblems).
  const fundUnits = isin !== undefined && FUND_ISIN.test(isin);
  const quantityIssue = quantityRequirementOf(quantity, fundUnits);
  if (quantityIssue) errors.push(csvRowMessage.quantity(row.line, label, quantityIssue));
  const priceProblem = amountProblem(averagePrice);
  if (priceProblem) errors.push(csvRowMessage.averagePrice(row.line, label, amountRequirement(priceProblem)));
  if (exchange === undefined) errors.push(csvRowMessage.exchange(row.line, label));
  if (errors.length > 0 || exchange === undefined) return { ok: false, errors };

  const holding: ImportRow = {
    line: row.line,
    ...(symbol ? { symbol } : {}),
    ...(isin ? { isin } : {}),
    ...(companyName ? { companyName } : {}),
    exchange,
    ...(exchangeText === '' ? {} : { exchangeFromFile: true as const }),
    quantity,
    averagePrice,
  };
  return { ok: true, holding };
}

/** What a row's quantity must be, as the end of its sentence, or null when it will do (a fund's units may be fractions). */
function quantityRequirementOf(quantity: number, fundUnits: boolean): string | null {
  if (fundUnits) {
    const problem = amountProblem(quantity);
    return problem && amountRequirement(problem);
  }
  const problem = quantityProblem(quantity);
  return problem && quantityRequirement(problem);
}

function cellAt(cells: readonly string[], index: number | undefined): string {
  return index === undefined ? '' : (cells[index] ?? '');
}

/** The first quantity column must hold a number; further ones (pledged) add to it when filled. */
function sumQuantity(cells: readonly string[]): number {
  const [first = '', ...rest] = cells;
  let total = parseBrokerNumber(first);
  for (const text of rest) {
    if (text !== '') total += parseBrokerNumber(text);
  }
  return total;
}

function identityOf(
  cells: readonly string[],
  columns: ColumnPositions,
): { symbol?: string; companyName?: string; isin?: string; label: string } {
  const cell = (index: number | undefined): string => cellAt(cells, index);
  // A symbol cell that breaks the symbol rule ("HDFC Bank", 41 letters) is read as a name:
  // it is matched against the master's names, and never stored as a symbol.
  const symbolText = cleanBrokerSymbol(cell(columns.symbol));
  const symbol = isWellFormedSymbol(symbolText) ? symbolText : undefined;
  const nameText = cell(columns.companyName) || (symbol ? '' : cell(columns.symbol));
  const companyName = nameText.replace(/\s+/g, ' ').trim() || undefined;
  const isinText = cell(columns.isin).toUpperCase();
  const isin = ISIN.test(isinText) ? isinText : undefined;
  return { symbol, companyName, isin, label: symbol ?? companyName ?? isin ?? '' };
}

/**
 * `Row N (SYMBOL): Invalid quantity - must be a whole number of shares` for each matched row with
 * a fraction of a share: the server's check of fund-ISIN rows the reader let through (a listed ETF).
 */
export function fractionalRowProblems(
  rows: readonly { line: number; symbol: string; quantity: number }[],
): string[] {
  return rows
    .filter((row) => quantityProblem(row.quantity) === 'fractional')
    .map((row) => csvRowMessage.quantity(row.line, row.symbol, quantityRequirement('fractional')));
}
