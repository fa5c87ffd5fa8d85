/**
 * The domain of every stored amount (quantities, prices, trigger values): the columns are
 * NUMERIC(18,4) (server/src/db/schema.ts), so a value must be below 10^14, and a positive one at
 * least 0.0001 (anything smaller would be stored as 0). Text must be a plain decimal (`12`,
 * `12.50`): hex, exponents, Infinity and NaN are refused. Used by the API schemas, the CSV/XLSX
 * row reader and the client's forms, so all of them accept and refuse the same numbers.
 */
import { z } from 'zod';
import { parseDecimal } from '../holdings/numbers.ts';

/** Decimals the columns keep. */
export const AMOUNT_SCALE = 4;
/** The smallest positive amount a column keeps (10^-4). */
export const MIN_AMOUNT = 0.0001;
/** Amounts must be below this (14 integer digits). */
export const AMOUNT_LIMIT = 1e14;

/** Why an amount cannot be stored. */
export type AmountProblem = 'notPositive' | 'tooSmall' | 'tooLarge';

const LIMIT_TEXT = new Intl.NumberFormat('en-IN').format(AMOUNT_LIMIT);

/** What an amount must be, as the end of a sentence: `must be at least 0.0001`. */
export function amountRequirement(problem: AmountProblem): string {
  switch (problem) {
    case 'notPositive':
      return 'must be a positive number';
    case 'tooSmall':
      return `must be at least ${MIN_AMOUNT}`;
    case 'tooLarge':
      return `must be less than ${LIMIT_TEXT}`;
  }
}

/** `Quantity must be less than 10,00,00,00,00,00,000` (10^14). */
export function amountMessage(label: string, problem: AmountProblem): string {
  return `${label} ${amountRequirement(problem)}`;
}

/** Why a positive amount cannot be stored, or null when it can. */
export function amountProblem(value: number): AmountProblem | null {
  if (!Number.isFinite(value) || value <= 0) return 'notPositive';
  if (value < MIN_AMOUNT) return 'tooSmall';
  if (value >= AMOUNT_LIMIT) return 'tooLarge';
  return null;
}

/**
 * For `z.preprocess`: a JSON number as given, text read as a plain decimal (`NaN` for hex,
 * exponents, Infinity), anything else as given for the schema to refuse.
 */
export function decimalInput(value: unknown): unknown {
  return typeof value === 'string' ? parseDecimal(value) : value;
}

/**
 * A positive amount a column can store, given as a JSON number or plain decimal text.
 * `label` names it in the range sentences; `notPositive` is the sentence for anything that is
 * not a number above 0 (the documented texts, e.g. `Quantity must be a positive number`).
 */
export function storedAmount(label: string, notPositive = amountMessage(label, 'notPositive')) {
  return z.preprocess(
    decimalInput,
    z
      .number({ error: notPositive })
      .positive({ error: notPositive })
      .min(MIN_AMOUNT, { error: amountMessage(label, 'tooSmall') })
      .lt(AMOUNT_LIMIT, { error: amountMessage(label, 'tooLarge') }),
  );
}
