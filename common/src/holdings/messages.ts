/** User-facing validation messages for holdings input, worded exactly as the product shows them. */

export const MAX_IMPORT_ROWS = 1000;
/** Holdings one broker account may keep (a broker file replaces its account, so MAX_IMPORT_ROWS). */
export const MAX_HOLDINGS_PER_ACCOUNT = 1000;
/** Holdings one user may keep across all accounts. */
export const MAX_HOLDINGS_IN_ALL = 5000;

const grouped = (n: number) => n.toLocaleString('en-IN');

/** Refusals when a change would take a user past the holdings limits. */
export const holdingsLimitMessage = {
  account: (account: string, count: number): string =>
    `An account can keep at most ${grouped(MAX_HOLDINGS_PER_ACCOUNT)} holdings; ${account} would have ${grouped(count)}.`,
  total: (count: number): string =>
    `You can keep at most ${grouped(MAX_HOLDINGS_IN_ALL)} holdings across all your accounts; this would make ${grouped(count)}. Delete some holdings or an account first.`,
};

export const CSV_MESSAGES = {
  empty: 'Please provide CSV data',
  notEnoughRows: 'CSV must contain at least a header row and one data row',
  missingSymbol: 'Missing required column: Symbol/Instrument',
  missingQuantity: 'Missing required column: Quantity/Qty',
  missingPrice: 'Missing required column: Buy Price/Average Price/Avg. cost',
  validationFailed: 'CSV validation failed. Please fix the errors below.',
  notCsvFile: 'Please upload a CSV file only, and check that the file ends with .csv',
} as const;

/**
 * Lines (with text on them) a file may have: MAX_IMPORT_ROWS holdings and room for a header, a
 * preamble and totals. A longer file is refused before its rows are read.
 */
export const MAX_IMPORT_LINES = MAX_IMPORT_ROWS + 200;

/** `Too many holdings: a file can hold at most 1000 rows (this one has 2,00,001 lines).` */
export function tooManyLinesMessage(lines: number): string {
  return `Too many holdings: a file can hold at most ${MAX_IMPORT_ROWS} rows (this one has ${grouped(lines)} lines).`;
}

/** `Too many holdings: a file can hold at most 1000 rows (this one has 1001).` */
export function tooManyRowsMessage(count: number): string {
  return `Too many holdings: a file can hold at most ${MAX_IMPORT_ROWS} rows (this one has ${count}).`;
}

/**
 * Per-row CSV problems, e.g. `Row 3 (INFY): Invalid quantity - must be a positive number`;
 * `requirement` words a number out of the stored range (`must be at least 0.0001`).
 */
export const csvRowMessage = {
  quantity: (row: number, label: string, requirement = 'must be a positive number'): string =>
    `Row ${row} (${label}): Invalid quantity - ${requirement}`,
  averagePrice: (row: number, label: string, requirement = 'must be a positive number'): string =>
    `Row ${row} (${label}): Invalid average price - ${requirement}`,
  exchange: (row: number, label: string): string =>
    `Row ${row} (${label}): Invalid exchange - must be NSE or BSE`,
};

/** Manual entry problems, e.g. `Row 2: Quantity is required`. */
export const manualRowMessage = {
  symbolRequired: (row: number): string => `Row ${row}: Symbol is required`,
  /** A symbol that breaks the symbol rule: `Row 1: Symbol can be at most 30 characters`. */
  symbol: (row: number, problem: string): string => `Row ${row}: ${problem}`,
  quantityRequired: (row: number): string => `Row ${row}: Quantity is required`,
  priceRequired: (row: number): string => `Row ${row}: Buy price is required`,
  /** A number out of range, e.g. `Row 2: Quantity must be a positive number` (see api/numbers.ts). */
  amount: (row: number, message: string): string => `Row ${row}: ${message}`,
  exchange: (row: number): string => `Row ${row}: Exchange must be NSE or BSE`,
};

export const QUANTITY_POSITIVE = 'Quantity must be a positive number';
export const PRICE_POSITIVE = 'Buy price must be a positive number';
