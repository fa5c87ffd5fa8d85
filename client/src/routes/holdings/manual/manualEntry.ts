/** Pure parts of the manual entry form (spec §4, §5, §9; unit-tested). */
import type { ManualRowInput } from '@app/common/holdings/manual';

export interface ManualRow extends ManualRowInput {
  /** Stable React key. */
  key: number;
  /** The pre-filled example row, which cannot be removed. */
  example?: boolean;
}

/** Spec §9: 100 units at 2500.00 on NSE. */
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
 * The form's first rows: two with the pre-filled example first (spec §9), or one empty row
 * (the Holdings page's Add New).
 */
export function initialManualRows(variant: 'example' | 'single'): ManualRow[] {
  if (variant === 'single') return [emptyRow()];
  return [{ ...EXAMPLE_ROW, key: nextKey++, example: true }, emptyRow()];
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
 * Spec §8 sorts a refused row by its message: one containing 'already exists' is a duplicate,
 * whatever the status code that carried it.
 */
export function isDuplicateFailure(failure: AddFailure): boolean {
  return failure.message.includes('already exists');
}

/** Groups refused rows as spec §8 words them. */
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
