/**
 * The one symbol rule (issue: no user's data can stop the feed). Every path that can put an
 * instrument into the watch set — manual entry, CSV and XLSX rows, upload overrides, rules,
 * price alerts — accepts only symbols of this shape, which every tick batch can carry.
 */
import { z } from 'zod';

/** Longest trading symbol accepted (NSE's longest is 20; BSE Security Ids are shorter). */
export const SYMBOL_MAX_LENGTH = 30;

const SYMBOL_PATTERN = /^[A-Z0-9][A-Z0-9&._-]*$/;

export const SYMBOL_MESSAGES = {
  required: 'Symbol is required',
  tooLong: `Symbol can be at most ${SYMBOL_MAX_LENGTH} characters`,
  characters: 'Symbol can only contain letters, digits, &, -, . and _',
} as const;

/** Why `symbol` (already trimmed and upper-cased) breaks the rule, or undefined when it is well formed. */
export function symbolProblem(symbol: string): string | undefined {
  if (symbol === '') return SYMBOL_MESSAGES.required;
  if (symbol.length > SYMBOL_MAX_LENGTH) return SYMBOL_MESSAGES.tooLong;
  if (!SYMBOL_PATTERN.test(symbol)) return SYMBOL_MESSAGES.characters;
  return undefined;
}

/** True when `symbol` (trimmed, upper-cased) is a well-formed trading symbol. */
export function isWellFormedSymbol(symbol: string): boolean {
  return symbolProblem(symbol) === undefined;
}

/** A symbol in a request body: trimmed, upper-cased, then held to the rule. */
export const symbolSchema = z
  .string({ error: SYMBOL_MESSAGES.required })
  .trim()
  .toUpperCase()
  .superRefine((symbol, ctx) => {
    const problem = symbolProblem(symbol);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
