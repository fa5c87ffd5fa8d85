/** Rules and triggers in words: labels for lists and emails, the sentence of an execution. */
import { formatInr } from '../format/money.ts';
import { EXECUTION_KINDS, kindOf, RULE_KINDS, type ExecutionTriggerType, type TriggerType } from './kinds.ts';
import type { AlertDirection, ValueType } from './types.ts';
import { VALUE_TYPE_TRAITS } from './value-types.ts';

/** 'Trailing stop loss 7%', 'Fixed stop loss ₹50.00', 'Take profit 10%', 'Fixed stop loss at ₹1,400.00'. */
export function describeRule(rule: {
  trigger_type: TriggerType;
  trigger_value: number;
  value_type: ValueType;
}) {
  return `${RULE_KINDS[rule.trigger_type].label} ${VALUE_TYPE_TRAITS[rule.value_type].words(rule.trigger_value)}`;
}

/** 'Price above ₹1,600.00'. */
export function describePriceAlert(alert: { direction: AlertDirection; price: number }): string {
  return `Price ${alert.direction} ${formatInr(alert.price)}`;
}

/** An execution's trigger type with underscores as spaces (emails lower-case it). */
export function triggerTypeLabel(type: string): string {
  return type.replace(/_/g, ' ');
}

/** What fired, in words, as History shows it: 'Fixed stop loss', 'Price above'. */
export function executionKindLabel(type: string): string {
  const known = kindOf(type)?.label;
  if (known) return known;
  const words = type.replace(/_/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A fired alert in a few words, as a phone notification's title: 'INFY stop loss hit'. */
export function firedTitle(symbol: string, triggerType: string): string {
  const name = kindOf(triggerType)?.title ?? 'alert';
  return `${symbol} ${name} hit`;
}

/** How far past its level a price may fill before the alert says it gapped through: 1 %. */
export const GAP_THROUGH_FRACTION = 0.01;

/**
 * True when the price that crossed is past the level by more than 1 %: the market opened (or
 * fell) through it, so the level was never traded and an exit would fill nearer the price.
 */
export function gappedThrough(input: {
  triggerType: ExecutionTriggerType;
  ltp: number;
  triggerPrice: number;
}): boolean {
  const past =
    EXECUTION_KINDS[input.triggerType].direction === 'above'
      ? input.ltp - input.triggerPrice
      : input.triggerPrice - input.ltp;
  return input.triggerPrice > 0 && past > input.triggerPrice * GAP_THROUGH_FRACTION;
}

/**
 * The execution's message: 'RELIANCE fell to ₹2,301.50, at or below your trailing stop at
 * ₹2,310.00'; take profit and price-above alerts 'rose to …, at or above …'. A price more than
 * 1 % past the level says so: 'RELIANCE gapped through your stop loss: level ₹950.00, price
 * ₹930.00'.
 */
export function crossingMessage(input: {
  symbol: string;
  triggerType: ExecutionTriggerType;
  ltp: number;
  triggerPrice: number;
}): string {
  if (gappedThrough(input))
    return `${input.symbol} gapped through ${EXECUTION_KINDS[input.triggerType].yours}: level ${formatInr(input.triggerPrice)}, price ${formatInr(input.ltp)}`;
  const rose = EXECUTION_KINDS[input.triggerType].direction === 'above';
  const moved = rose ? 'rose to' : 'fell to';
  const side = rose ? 'at or above' : 'at or below';
  return `${input.symbol} ${moved} ${formatInr(input.ltp)}, ${side} ${EXECUTION_KINDS[input.triggerType].levelName} ${formatInr(input.triggerPrice)}`;
}

/**
 * A rule's preview in the forms, around its level: 'Alert when the price falls to' ₹2,310.00
 * '; this level rises as the price rises' (the note for a kind that trails).
 */
export function previewWords(triggerType: TriggerType): { lead: string; note: string } {
  const kind = RULE_KINDS[triggerType];
  return {
    lead: `Alert when the price ${kind.direction === 'above' ? 'rises' : 'falls'} to`,
    note: kind.trails ? '; this level rises as the price rises' : '',
  };
}
