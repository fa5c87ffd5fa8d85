/**
 * A holding's quantity: a number of shares a column can store, and whole, since Indian cash
 * equity (and exchange-traded funds) has no fractional shares. One rule for the CSV/XLSX rows,
 * manual entry, inline edit and the API.
 */
import { z } from 'zod';
import { AMOUNT_LIMIT, amountProblem, amountRequirement, decimalInput } from '../api/numbers.ts';

/**
 * Why a quantity cannot be held: not a positive number, too large for the column, or a fraction
 * of a share (any positive amount below one share among them: the column's 0.0001 means nothing
 * for shares).
 */
export type QuantityProblem = 'notPositive' | 'tooLarge' | 'fractional';

/** The end of the sentence for a fraction of a share. */
export const WHOLE_SHARES = 'must be a whole number of shares';

/** Why `value` is not a quantity a holding can have, or null when it is. */
export function quantityProblem(value: number): QuantityProblem | null {
  const problem = amountProblem(value);
  if (problem === 'notPositive' || problem === 'tooLarge') return problem;
  return Number.isInteger(value) ? null : 'fractional';
}

/** What a quantity must be, as the end of a sentence: `must be a whole number of shares`. */
export function quantityRequirement(problem: QuantityProblem): string {
  return problem === 'fractional' ? WHOLE_SHARES : amountRequirement(problem);
}

/** `Quantity must be a whole number of shares` */
export function quantityMessage(problem: QuantityProblem): string {
  return `Quantity ${quantityRequirement(problem)}`;
}

/** The API's quantity: a positive whole number below the column's limit (`notPositive` is the documented sentence). */
export function quantitySchema(notPositive: string) {
  return z.preprocess(
    decimalInput,
    z
      .number({ error: notPositive })
      .positive({ error: notPositive })
      .lt(AMOUNT_LIMIT, { error: quantityMessage('tooLarge') })
      .refine((value) => Number.isInteger(value), { error: quantityMessage('fractional') }),
  );
}
