/** Rules and triggers in words: labels for lists and emails, the sentence of an execution. */
import { formatInr } from '../format/money.ts';
import type { AlertDirection, ExecutionTriggerType, TriggerType, ValueType } from './types.ts';
import { VALUE_TYPE_TRAITS } from './value-types.ts';

const TRIGGER_LABELS: Record<TriggerType, string> = {
  FIXED_STOP_LOSS: 'Fixed stop loss',
  TRAILING_STOP_LOSS: 'Trailing stop loss',
  TAKE_PROFIT: 'Take profit',
};

/** 'Trailing stop loss 7%', 'Fixed stop loss ₹50.00', 'Take profit 10%', 'Fixed stop loss at ₹1,400.00'. */
export function describeRule(rule: {
  trigger_type: TriggerType;
  trigger_value: number;
  value_type: ValueType;
}) {
  return `${TRIGGER_LABELS[rule.trigger_type]} ${VALUE_TYPE_TRAITS[rule.value_type].words(rule.trigger_value)}`;
}

/** 'Price above ₹1,600.00'. */
export function describePriceAlert(alert: { direction: AlertDirection; price: number }): string {
  return `Price ${alert.direction} ${formatInr(alert.price)}`;
}

/** An execution's trigger type with underscores as spaces (emails lower-case it). */
export function triggerTypeLabel(type: string): string {
  return type.replace(/_/g, ' ');
}

const EXECUTION_KIND_LABELS: Record<ExecutionTriggerType, string> = {
  ...TRIGGER_LABELS,
  PRICE_ABOVE: 'Price above',
  PRICE_BELOW: 'Price below',
};

/** What fired, in words, as History shows it: 'Fixed stop loss', 'Price above'. */
export function executionKindLabel(type: string): string {
  const known = EXECUTION_KIND_LABELS[type as ExecutionTriggerType] as string | undefined;
  if (known) return known;
  const words = type.replace(/_/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const LEVEL_NAMES: Record<ExecutionTriggerType, string> = {
  FIXED_STOP_LOSS: 'your stop loss at',
  TRAILING_STOP_LOSS: 'your trailing stop at',
  TAKE_PROFIT: 'your profit target at',
  PRICE_ABOVE: 'your alert price of',
  PRICE_BELOW: 'your alert price of',
};

const TITLE_NAMES: Record<ExecutionTriggerType, string> = {
  FIXED_STOP_LOSS: 'stop loss',
  TRAILING_STOP_LOSS: 'trailing stop',
  TAKE_PROFIT: 'profit target',
  PRICE_ABOVE: 'price alert',
  PRICE_BELOW: 'price alert',
};

/** A fired alert in a few words, as a phone notification's title: 'INFY stop loss hit'. */
export function firedTitle(symbol: string, triggerType: string): string {
  const name = (TITLE_NAMES[triggerType as ExecutionTriggerType] as string | undefined) ?? 'alert';
  return `${symbol} ${name} hit`;
}

/** How far past its level a price may fill before the alert says it gapped through: 1 %. */
export const GAP_THROUGH_FRACTION = 0.01;

const GAP_NAMES: Record<ExecutionTriggerType, string> = {
  FIXED_STOP_LOSS: 'your stop loss',
  TRAILING_STOP_LOSS: 'your trailing stop',
  TAKE_PROFIT: 'your profit target',
  PRICE_ABOVE: 'your alert price',
  PRICE_BELOW: 'your alert price',
};

const fires = (triggerType: ExecutionTriggerType) =>
  triggerType === 'TAKE_PROFIT' || triggerType === 'PRICE_ABOVE' ? 'above' : 'below';

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
    fires(input.triggerType) === 'above' ? input.ltp - input.triggerPrice : input.triggerPrice - input.ltp;
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
    return `${input.symbol} gapped through ${GAP_NAMES[input.triggerType]}: level ${formatInr(input.triggerPrice)}, price ${formatInr(input.ltp)}`;
  const rose = fires(input.triggerType) === 'above';
  const moved = rose ? 'rose to' : 'fell to';
  const side = rose ? 'at or above' : 'at or below';
  return `${input.symbol} ${moved} ${formatInr(input.ltp)}, ${side} ${LEVEL_NAMES[input.triggerType]} ${formatInr(input.triggerPrice)}`;
}
