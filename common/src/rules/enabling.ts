/**
 * Enabling a rule again (issue #28 item 7). A fixed level (a fixed stop or a profit target) never
 * moves unless the user moves it, or a bonus or split does and says so: enabling keeps it. A
 * trailing stop starts a fresh peak from the current price, as when created. When the price has
 * crossed a kept level since (a fired stop whose level is now above the price), enabling it as
 * it is would fire at once, so the user is asked first: enable it measured from the current
 * price instead (`level: 'from_price'`), at the level that gives.
 */
import { formatInr } from '../format/money.ts';
import { crossedLevelSentence } from './messages.ts';
import { computeTriggerPrice, isCrossed } from './trigger.ts';
import { RULE_KINDS, type TriggerType } from './kinds.ts';
import type { ValueType } from './types.ts';
import { VALUE_TYPE_TRAITS } from './value-types.ts';

/** `keep`: a fixed level stays where it is (the default); `from_price`: measured again from the current price. */
export const ENABLE_LEVELS = ['keep', 'from_price'] as const;
export type EnableLevel = (typeof ENABLE_LEVELS)[number];

/** Whether enabling keeps the rule's level: every rule but a trailing stop, which follows a new peak. */
export function keepsLevelOnEnable(triggerType: TriggerType): boolean {
  return !RULE_KINDS[triggerType].trails;
}

export interface EnablingRule {
  symbol: string;
  trigger_type: TriggerType;
  value_type: ValueType;
  trigger_value: number;
  computed_trigger_price: number;
  is_active: boolean;
  current_price: number | null;
}

/** What to ask before enabling a rule whose kept level the price has crossed. */
export interface EnableQuestion {
  /** The sentence the dialog shows. */
  text: string;
  /** The level measured from the current price, or null when there is none to offer (a price rule). */
  movedLevel: number | null;
}

/**
 * Null when enabling needs no question: the rule is on already, follows a peak, has no price to
 * check against, or its level is still on the right side of the price. Otherwise the question,
 * with the level measured from the current price when that level would not fire at once too.
 */
export function enableQuestion(rule: EnablingRule): EnableQuestion | null {
  const price = rule.current_price;
  if (rule.is_active || !keepsLevelOnEnable(rule.trigger_type) || price === null || price <= 0) return null;
  const level = rule.computed_trigger_price;
  if (!isCrossed({ triggerType: rule.trigger_type, triggerPrice: level }, price)) return null;
  const crossed = crossedLevelSentence(rule.trigger_type, level, price);
  if (rule.value_type === 'PRICE') {
    return { text: `${rule.symbol}: ${crossed} Edit its price to enable it.`, movedLevel: null };
  }
  const movedLevel = computeTriggerPrice({
    triggerType: rule.trigger_type,
    valueType: rule.value_type,
    triggerValue: rule.trigger_value,
    referencePrice: price,
  });
  if (movedLevel <= 0 || isCrossed({ triggerType: rule.trigger_type, triggerPrice: movedLevel }, price)) {
    return { text: `${rule.symbol}: ${crossed} Edit it to enable it.`, movedLevel: null };
  }
  const words = VALUE_TYPE_TRAITS[rule.value_type].words(rule.trigger_value);
  const side = RULE_KINDS[rule.trigger_type].direction;
  return {
    text: `${rule.symbol}: ${crossed} Enable it at ${formatInr(movedLevel)} instead, ${words} ${side} the current price?`,
    movedLevel,
  };
}

/**
 * The server's refusal when a kept level is crossed (an enable that did not ask for
 * `from_price`): the sentence, then what the user can do.
 */
export function crossedOnEnableMessage(
  rule: Pick<EnablingRule, 'symbol' | 'trigger_type' | 'value_type'>,
  level: number,
  price: number,
): string {
  const way =
    rule.value_type === 'PRICE'
      ? 'Edit its price to enable it.'
      : 'Enable it measured from the current price, or edit its level.';
  return `${rule.symbol}: ${crossedLevelSentence(rule.trigger_type, level, price)} ${way}`;
}
