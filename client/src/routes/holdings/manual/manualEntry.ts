/** Pure parts of the manual entry form (docs/holdings.md#holdings-and-dashboard-screens; unit-tested). */
import type { ManualRowInput } from '@app/common/holdings/manual';

export interface ManualRow extends ManualRowInput {
  /** Stable React key. */
  key: number;
  /**
   * The example row (docs/holdings.md), which cannot be removed: its fields are empty and show the example
   * as placeholders, so an untouched example row is an empty row, which Save All ignores.
   */
  example?: boolean;
}

/** 100 units at 2500.00 on NSE, shown as the example row's placeholders. */
export const EXAMPLE_ROW: ManualRowInput = {
  symbol: 'RELIANCE',
  exchange: 'NSE',
  quantity: '100',
  averagePrice: '2500.00',
};

let nextKey = 1;

export function emptyRow(): ManualRow {
  return { key: nextKey++, symbol: '', exchange: 'NSE', quantity: '', averagePrice: '' };
}

/**
 * The form's first rows: two with the example first (docs/holdings.md; empty, its values shown as
 * placeholders), or one empty row (the Holdings page's Add New).
 */
export function initialManualRows(variant: 'example' | 'single'): ManualRow[] {
  if (variant === 'single') return [emptyRow()];
  return [{ ...emptyRow(), example: true }, emptyRow()];
}

/** The placeholders of a row's fields: the example's values on the example row. */
export function rowPlaceholders(row: ManualRow): { symbol: string; quantity: string; averagePrice: string } {
  return row.example
    ? { symbol: EXAMPLE_ROW.symbol, quantity: EXAMPLE_ROW.quantity, averagePrice: EXAMPLE_ROW.averagePrice }
    : { symbol: 'e.g. RELIANCE', quantity: '100', averagePrice: '2500.00' };
}

/** The last row and the example row cannot be removed. */
export function canRemoveRow(rows: readonly ManualRow[], row: ManualRow): boolean {
  return rows.length > 1 && !row.example;
}

/** One row the server refused. */
export interface AddFailure {
  symbol: string;
  exchange: string;
  /** The server's error text, or '' when it gave none. */
  message: string;
}

export interface AddFailureReport {
  /** 'Failed to add holding' for one submitted row, else 'Failed to add holdings'. */
  title: string;
  /** Listed under 'Duplicate Holdings:'. */
  duplicates: string[];
  /** Listed under 'Other Errors:'. */
  others: string[];
}

export const DUPLICATE_HEADING = 'Duplicate Holdings:';
export const OTHER_ERRORS_HEADING = 'Other Errors:';
const ADD_ONE_FAILED = 'Failed to add holding';
const ADD_MANY_FAILED = 'Failed to add holdings';

/**
 * A refused row is sorted by its message (docs/holdings.md#holdings-and-dashboard-screens): one
 * containing 'already exists' is a duplicate, whatever the status code that carried it.
 */
export function isDuplicateFailure(failure: AddFailure): boolean {
  return failure.message.includes('already exists');
}

/** Groups refused rows in the words of docs/holdings.md#holdings-and-dashboard-screens. */
export function describeAddFailures(failures: readonly AddFailure[], submitted: number): AddFailureReport {
  return {
    title: submitted === 1 ? ADD_ONE_FAILED : ADD_MANY_FAILED,
    duplicates: failures
      .filter(isDuplicateFailure)
      .map(
        (f) =>
          `${f.symbol} (${f.exchange}) already exists. You can edit the quantity or buy price if needed.`,
      ),
    others: failures
      .filter((f) => !isDuplicateFailure(f))
      .map((f) => `${f.symbol} (${f.exchange}): ${f.message || ADD_ONE_FAILED}`),
  };
}
