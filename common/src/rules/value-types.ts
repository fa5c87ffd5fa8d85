/**
 * What a rule's `trigger_value` means (its `value_type`), one row per kind: the level itself
 * (`PRICE`, the Kite way: "alert me at ₹1,400"), a percent of the reference price, or rupees
 * from it. The engine, the corporate-action adjustment, the API and the forms read this table.
 */
import { formatInr } from '../format/money.ts';
import { round2 } from '../portfolio/position-math.ts';
import { RULE_KINDS, type TriggerType } from './kinds.ts';
import type { ValueType } from './types.ts';

export interface ValueTypeTraits {
  /** The trigger level from the value, measured from `base` (the reference or the peak), `up` for a target. */
  level: (value: number, base: number, up: boolean) => number;
  /** The same level before rounding to the paisa (the engine rounds a batch of peaks in numbers). */
  unrounded: (value: number, base: number, up: boolean) => number;
  /** Its code in two bits of an engine slot's flags (1 to 3; 0 is a price alert, which has none). */
  code: number;
  /** May a trailing stop use it? A price is a fixed level: it cannot follow a peak. */
  trails: boolean;
  /** Does a bonus or split divide the value (rupees do, a percent does not)? */
  dividedByCorporateAction: boolean;
  /** The value in a rule's name: '7%', '₹50.00', 'at ₹1,400.00'. */
  words: (value: number) => string;
  /** The unit choice in a form with room ('Price (₹)'), and in a narrow one ('At ₹'). */
  choice: string;
  shortChoice: string;
  /** The value field's label. */
  fieldLabel: string;
}

/** An entry's level: its unrounded formula, to the paisa. */
const rounded = (t: Omit<ValueTypeTraits, 'level'>): ValueTypeTraits => ({
  ...t,
  level: (value, base, up) => round2(t.unrounded(value, base, up)),
});

export const VALUE_TYPE_TRAITS: Readonly<Record<ValueType, ValueTypeTraits>> = Object.freeze({
  PRICE: rounded({
    unrounded: (value) => value,
    code: 3,
    trails: false,
    dividedByCorporateAction: true,
    words: (value) => `at ${formatInr(value)}`,
    choice: 'Price (₹)',
    shortChoice: 'At ₹',
    fieldLabel: 'Trigger price',
  }),
  PERCENT: rounded({
    unrounded: (value, base, up) => base * (up ? 1 + value / 100 : 1 - value / 100),
    code: 1,
    trails: true,
    dividedByCorporateAction: false,
    words: (value) => `${Number(value.toFixed(4))}%`,
    choice: 'Percent (%)',
    shortChoice: '%',
    fieldLabel: 'Trigger value',
  }),
  ABSOLUTE: rounded({
    unrounded: (value, base, up) => (up ? base + value : base - value),
    code: 2,
    trails: true,
    dividedByCorporateAction: true,
    words: (value) => formatInr(value),
    choice: 'Rupees from price (₹)',
    shortChoice: '₹ away',
    fieldLabel: 'Trigger value',
  }),
});

/** The unit choices in the order the forms offer them: the price itself first. */
export const VALUE_TYPE_CHOICES: readonly ValueType[] = Object.freeze(['PRICE', 'PERCENT', 'ABSOLUTE']);

/** Value types whose value a bonus or split divides (for SQL: `value_type = any(...)`). */
export const VALUE_TYPES_DIVIDED_BY_ACTIONS: readonly ValueType[] = Object.freeze(
  VALUE_TYPE_CHOICES.filter((v) => VALUE_TYPE_TRAITS[v].dividedByCorporateAction),
);

/** Whether this trigger type may be set with this value type (a trailing stop cannot be a price). */
export function valueTypeFits(triggerType: TriggerType, valueType: ValueType): boolean {
  return !RULE_KINDS[triggerType].trails || VALUE_TYPE_TRAITS[valueType].trails;
}

/** Why a trailing stop cannot be set at a price. */
export const TRAILING_PRICE_MESSAGE =
  'A trailing stop follows the price up, so it is set in percent or rupees below the peak, not at a fixed price. Choose Fixed stop loss for a stop at a price.';

/** The value type a form keeps when the trigger type changes: a trailing stop falls back to percent. */
export function fittingValueType(triggerType: TriggerType, valueType: ValueType): ValueType {
  return valueTypeFits(triggerType, valueType) ? valueType : 'PERCENT';
}
