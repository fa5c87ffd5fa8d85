/** Trigger math (docs/exit-rules.md, Meaning): pure, shared by the client and the engine. */
import { round2 } from '../portfolio/position-math.ts';
import { RULE_KINDS, type TriggerType } from './kinds.ts';
import type { AlertDirection, ValueType } from './types.ts';
import { VALUE_TYPE_TRAITS } from './value-types.ts';

export interface TriggerInput {
  triggerType: TriggerType;
  valueType: ValueType;
  /** Percent (7 = 7%) or rupees, as `valueType` says. */
  triggerValue: number;
  /** The price the rule is measured from: the current price, or the buy price for templates. */
  referencePrice: number;
  /** Trailing stops only: the highest price since creation; defaults to the reference price. */
  peakPrice?: number | null;
  /** ATR stops only: the stock's ATR(n) (common/history/atr-stop.ts atrBefore). */
  atr?: number;
}

/**
 * The price at which a rule fires, rounded to 2 decimals: the value type's formula
 * (value-types.ts) from the reference, or from the peak for a kind that trails (kinds.ts),
 * upwards for a kind that fires above: `v` itself for a price (`PRICE`); fixed stop
 * `ref × (1 − v/100)` or `ref − v`; trailing stop the same from the peak; take profit
 * `ref × (1 + v/100)` or `ref + v`.
 */
export function computeTriggerPrice(input: TriggerInput): number {
  const { triggerType, valueType, triggerValue: v, referencePrice: ref } = input;
  const kind = RULE_KINDS[triggerType];
  const base = kind.trails ? (input.peakPrice ?? ref) : ref;
  return VALUE_TYPE_TRAITS[valueType].level(v, base, kind.direction === 'above', input.atr);
}

/** A trailing stop's peak after a new last traded price: it only rises. */
export function updateTrailingPeak(peak: number | null | undefined, ltp: number): number {
  return peak === null || peak === undefined || ltp > peak ? ltp : peak;
}

/** Something that can be crossed: a rule at its trigger price, or a price alert. */
export type Crossable =
  { triggerType: TriggerType; triggerPrice: number } | { direction: AlertDirection; price: number };

/** Which way a crossable fires: a price alert its own way, a rule its kind's (kinds.ts). */
export function crossingDirection(rule: Crossable): AlertDirection {
  if ('direction' in rule) return rule.direction;
  return RULE_KINDS[rule.triggerType].direction;
}

/**
 * Whether `ltp` crosses the rule: stops when ltp ≤ trigger, take profit when ltp ≥ trigger,
 * price alerts above when ltp ≥ price and below when ltp ≤ price.
 */
export function isCrossed(rule: Crossable, ltp: number): boolean {
  const level = 'direction' in rule ? rule.price : rule.triggerPrice;
  return crossingDirection(rule) === 'above' ? ltp >= level : ltp <= level;
}

/** The band a trigger price must lie in: 10% to 200% of the current price (docs/exit-rules.md). */
export const TRIGGER_BOUNDS = { minRatio: 0.1, maxRatio: 2 } as const;

/** The lowest and highest trigger price allowed for `currentPrice`. */
export function triggerBounds(currentPrice: number): { min: number; max: number } {
  return {
    min: round2(currentPrice * TRIGGER_BOUNDS.minRatio),
    max: round2(currentPrice * TRIGGER_BOUNDS.maxRatio),
  };
}

/**
 * How far the price must still move for the rule to fire, in percent of the price (2 decimals):
 * positive while the level is not crossed (a stop below the price, a target above it), zero at
 * the level, negative once the price is past it. Null without a price.
 */
export function distanceToLevel(rule: Crossable, ltp: number | null | undefined): number | null {
  if (typeof ltp !== 'number' || !Number.isFinite(ltp) || ltp <= 0) return null;
  const level = 'direction' in rule ? rule.price : rule.triggerPrice;
  const gap = crossingDirection(rule) === 'above' ? level - ltp : ltp - level;
  return round2((gap / ltp) * 100);
}
