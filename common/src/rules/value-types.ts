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
  /**
   * The trigger level from the value, measured from `base` (the reference or the peak), `up` for a
   * target; `atr` is the stock's ATR, which only the ATR type reads (NaN without it).
   */
  level: (value: number, base: number, up: boolean, atr?: number) => number;
  /** The same level before rounding to the paisa (the engine rounds a batch of peaks in numbers). */
  unrounded: (value: number, base: number, up: boolean, atr?: number) => number;
  /** Its code in three bits of an engine slot's flags (1 to 7; 0 is a price alert, which has none). */
  code: number;
  /** May a trailing stop use it? A price is a fixed level: it cannot follow a peak. */
  trails: boolean;
  /**
   * The level comes from the daily bars (an ATR stop): a stored number the engine never moves
   * tick by tick; a trailing one rises only in the nightly recomputation, from closes.
   */
  fromBars: boolean;
  /** The kinds it fits: 'both' sides of the price, or only stops ('below'). */
  sides: 'both' | 'below';
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
  level: (value, base, up, atr) => round2(t.unrounded(value, base, up, atr)),
});

export const VALUE_TYPE_TRAITS: Readonly<Record<ValueType, ValueTypeTraits>> = Object.freeze({
  PRICE: rounded({
    unrounded: (value) => value,
    code: 3,
    trails: false,
    fromBars: false,
    sides: 'both',
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
    fromBars: false,
    sides: 'both',
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
    fromBars: false,
    sides: 'both',
    dividedByCorporateAction: true,
    words: (value) => formatInr(value),
    choice: 'Rupees from price (₹)',
    shortChoice: '₹ away',
    fieldLabel: 'Trigger value',
  }),
  /** k × ATR(n) below the reference or the highest close (common/history/atr-stop.ts); stops only. */
  ATR: rounded({
    unrounded: (value, base, up, atr = NaN) => (up ? base + value * atr : base - value * atr),
    code: 4,
    trails: true,
    fromBars: true,
    sides: 'below',
    // k is a multiple: a split divides the stored ATR and the level, not k.
    dividedByCorporateAction: false,
    words: (value) => `${Number(value.toFixed(2))} × ATR`,
    choice: 'ATR (volatility)',
    shortChoice: '× ATR',
    fieldLabel: 'Multiple of ATR',
  }),
});

/** An ATR stop's period n and multiple k: their ranges and defaults (docs/exit-rules.md). */
export const ATR_LIMITS = Object.freeze({
  minMultiple: 0.5,
  maxMultiple: 10,
  defaultMultiple: 3,
  minPeriod: 5,
  maxPeriod: 100,
  defaultPeriod: 22,
});

/** Why an ATR stop's multiple or period cannot be saved (every form and Save All say it). */
export const ATR_PROBLEM = `An ATR stop takes a multiple from ${ATR_LIMITS.minMultiple} to ${ATR_LIMITS.maxMultiple} and a period from ${ATR_LIMITS.minPeriod} to ${ATR_LIMITS.maxPeriod} days`;

/** Whether an ATR stop's multiple k and period n (as typed or stored) are in ATR_LIMITS' ranges. */
export function atrValuesFit(multiple: number | string, period: number | string): boolean {
  const k = typeof multiple === 'number' ? multiple : multiple.trim() === '' ? NaN : Number(multiple);
  const n = typeof period === 'number' ? period : period.trim() === '' ? NaN : Number(period);
  return (
    k >= ATR_LIMITS.minMultiple &&
    k <= ATR_LIMITS.maxMultiple &&
    Number.isInteger(n) &&
    n >= ATR_LIMITS.minPeriod &&
    n <= ATR_LIMITS.maxPeriod
  );
}

/** The unit choices in the order the forms offer them: the price itself first. */
export const VALUE_TYPE_CHOICES: readonly ValueType[] = Object.freeze([
  'PRICE',
  'PERCENT',
  'ABSOLUTE',
  'ATR',
]);

/** Value types whose value a bonus or split divides (for SQL: `value_type = any(...)`). */
export const VALUE_TYPES_DIVIDED_BY_ACTIONS: readonly ValueType[] = Object.freeze(
  VALUE_TYPE_CHOICES.filter((v) => VALUE_TYPE_TRAITS[v].dividedByCorporateAction),
);

/** Whether this trigger type may be set with this value type (a trailing stop cannot be a price, a target not ATR). */
export function valueTypeFits(triggerType: TriggerType, valueType: ValueType): boolean {
  const traits = VALUE_TYPE_TRAITS[valueType];
  const kind = RULE_KINDS[triggerType];
  return (!kind.trails || traits.trails) && (traits.sides === 'both' || kind.direction === traits.sides);
}

/** Why a trailing stop cannot be set at a price. */
export const TRAILING_PRICE_MESSAGE =
  'A trailing stop follows the price up, so it is set in percent or rupees below the peak, not at a fixed price. Choose Fixed stop loss for a stop at a price.';

/** Why a take profit cannot be an ATR stop. */
export const ATR_STOPS_ONLY_MESSAGE =
  'An ATR level is for stop losses: choose Fixed stop loss or Trailing stop loss, or set the take profit in percent, rupees or a price.';

/** Why this trigger type cannot use this value type. */
export function unfitMessage(valueType: ValueType): string {
  return VALUE_TYPE_TRAITS[valueType].sides === 'below' ? ATR_STOPS_ONLY_MESSAGE : TRAILING_PRICE_MESSAGE;
}

/** The value type a form keeps when the trigger type changes: an unfit one falls back to percent. */
export function fittingValueType(triggerType: TriggerType, valueType: ValueType): ValueType {
  return valueTypeFits(triggerType, valueType) ? valueType : 'PERCENT';
}
