import { parseDecimal } from './numbers.ts';
import { manualRowMessage } from './messages.ts';
import { amountMessage, amountProblem } from '../api/numbers.ts';
import { symbolProblem } from '../instruments/symbol.ts';
import { quantityMessage, quantityProblem } from './quantity.ts';
import { toExchange } from '../instruments/types.ts';
import type { Exchange } from '../instruments/types.ts';

/** One row of the manual entry form, as typed. */
export interface ManualRowInput {
  symbol: string;
  exchange: string;
  quantity: string;
  averagePrice: string;
}

/** A manual row ready to post as a holding. */
export interface ManualHolding {
  symbol: string;
  exchange: Exchange;
  quantity: number;
  average_price: number;
}

/**
 * Validates the manual entry form. Completely empty rows are ignored; rows are numbered by their
 * position in the form. Symbols are trimmed and upper-cased; an empty exchange means NSE.
 */
export function validateManualRows(rows: readonly ManualRowInput[]): {
  valid: ManualHolding[];
  errors: string[];
} {
  const valid: ManualHolding[] = [];
  const errors: string[] = [];
  rows.forEach((input, index) => {
    const row = index + 1;
    const symbol = input.symbol.trim().toUpperCase();
    const quantityText = input.quantity.trim();
    const priceText = input.averagePrice.trim();
    if (symbol === '' && quantityText === '' && priceText === '') return;

    const rowErrors: string[] = [];
    const symbolIssue = symbolProblem(symbol);
    if (symbol === '') rowErrors.push(manualRowMessage.symbolRequired(row));
    else if (symbolIssue) rowErrors.push(manualRowMessage.symbol(row, symbolIssue));
    const quantity = parseDecimal(quantityText);
    const quantityIssue = quantityProblem(quantity);
    if (quantityText === '') rowErrors.push(manualRowMessage.quantityRequired(row));
    else if (quantityIssue) rowErrors.push(manualRowMessage.amount(row, quantityMessage(quantityIssue)));
    const averagePrice = parseDecimal(priceText);
    const priceProblem = amountProblem(averagePrice);
    if (priceText === '') rowErrors.push(manualRowMessage.priceRequired(row));
    else if (priceProblem)
      rowErrors.push(manualRowMessage.amount(row, amountMessage('Buy price', priceProblem)));
    const exchange = input.exchange.trim() === '' ? 'NSE' : toExchange(input.exchange);
    if (exchange === undefined) rowErrors.push(manualRowMessage.exchange(row));

    if (rowErrors.length > 0 || exchange === undefined) errors.push(...rowErrors);
    else valid.push({ symbol, exchange, quantity, average_price: averagePrice });
  });
  return { valid, errors };
}

export type InlineEditField = 'quantity' | 'average_price';

export type InlineEditOutcome =
  { action: 'cancel' } | { action: 'error'; message: string } | { action: 'save'; value: number };

/**
 * Decides what an inline edit of quantity or buy price does on Enter: an empty or unchanged value
 * cancels, a value that is not a number a holding can store is refused, anything else is saved.
 */
export function validateInlineEdit(field: InlineEditField, raw: string, current: number): InlineEditOutcome {
  const text = raw.trim();
  if (text === '') return { action: 'cancel' };
  const value = parseDecimal(text);
  if (field === 'quantity') {
    const problem = quantityProblem(value);
    if (problem) return { action: 'error', message: quantityMessage(problem) };
  } else {
    const problem = amountProblem(value);
    if (problem) return { action: 'error', message: amountMessage('Buy price', problem) };
  }
  if (value === current) return { action: 'cancel' };
  return { action: 'save', value };
}
