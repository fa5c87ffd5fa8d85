/** Rule drafts (spec §4 Rule-draft flow, §5 Rule draft, §8 Save All): checks before saving. */
import { firesAtOnceMessage, RULE_MESSAGES, SAVE_ALL_MESSAGES } from './messages.ts';
import { amountMessage, amountProblem } from '../api/numbers.ts';
import { computeTriggerPrice, isCrossed, triggerBounds } from './trigger.ts';
import type { ActionType, TriggerType, ValueType } from './types.ts';

/** The draft every account row starts with: alert, trailing stop loss, 7 percent (spec §9). */
export const DEFAULT_RULE_DRAFT = Object.freeze({
  action_type: 'ALERT' as ActionType,
  trigger_type: 'TRAILING_STOP_LOSS' as TriggerType,
  trigger_value: 7,
  value_type: 'PERCENT' as ValueType,
});

/** The trigger input accepts digits and a dot only: everything else typed is dropped. */
export function sanitizeTriggerInput(text: string): string {
  const kept = text.replace(/[^\d.]/g, '');
  const dot = kept.indexOf('.');
  return dot === -1 ? kept : kept.slice(0, dot + 1) + kept.slice(dot + 1).replace(/\./g, '');
}

/** A trigger value as typed (string) or stored (number); NaN when it is not a number. */
export function parseTriggerValue(value: number | string | null | undefined): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || !/^\s*\d*\.?\d+\s*$|^\s*\d+\.\s*$/.test(value)) return NaN;
  return Number(value.trim());
}

export interface RuleDraftInput {
  triggerType: TriggerType;
  valueType: ValueType;
  triggerValue: number | string | null | undefined;
  /** The holding's latest price; missing or ≤ 0 means no price. */
  currentPrice: number | null | undefined;
  /** Compute from this price instead of the current one (templates use the buy price). */
  referencePrice?: number | null;
  /** Trailing stops being re-checked: the current peak. */
  peakPrice?: number | null;
}

/**
 * Why a draft cannot be saved, so callers pick their own sentence without reading ours.
 * `fires_at_once`: the price has already crossed the level (a stop at or above it, a take
 * profit at or below it), which only a rule measured from the buy price can be.
 */
export type DraftProblem = 'value' | 'price' | 'invalid' | 'fires_at_once' | 'bounds';

export type DraftCheck =
  | { ok: true; triggerValue: number; triggerPrice: number; referencePrice: number }
  | { ok: false; problem: DraftProblem; error: string; bounds?: { min: number; max: number } };

/**
 * Spec §5 Rule draft, in order: trigger value > 0 (and one the column keeps); a current price > 0; the computed trigger
 * price (2 decimals) > 0; not already crossed by the current price (it would fire at once);
 * and within 10%–200% of the current price. `error` is the spec's text (or ours for a crossed level).
 */
export function validateRuleDraft(input: RuleDraftInput): DraftCheck {
  const value = parseTriggerValue(input.triggerValue);
  if (!Number.isFinite(value) || value <= 0) {
    return { ok: false, problem: 'value', error: RULE_MESSAGES.triggerValue };
  }
  const stored = amountProblem(value);
  if (stored) return { ok: false, problem: 'value', error: amountMessage('Trigger value', stored) };
  const current = input.currentPrice;
  if (typeof current !== 'number' || !Number.isFinite(current) || current <= 0) {
    return { ok: false, problem: 'price', error: RULE_MESSAGES.noPrice };
  }
  const referencePrice = input.referencePrice ?? current;
  const triggerPrice = computeTriggerPrice({
    triggerType: input.triggerType,
    valueType: input.valueType,
    triggerValue: value,
    referencePrice,
    peakPrice: input.peakPrice,
  });
  if (!Number.isFinite(triggerPrice) || triggerPrice <= 0) {
    return { ok: false, problem: 'invalid', error: RULE_MESSAGES.invalidTrigger };
  }
  if (isCrossed({ triggerType: input.triggerType, triggerPrice }, current)) {
    return {
      ok: false,
      problem: 'fires_at_once',
      error: firesAtOnceMessage(input.triggerType, triggerPrice, current),
    };
  }
  const bounds = triggerBounds(current);
  if (triggerPrice < bounds.min || triggerPrice > bounds.max) {
    return { ok: false, problem: 'bounds', error: RULE_MESSAGES.outOfRange(bounds.min, bounds.max), bounds };
  }
  return { ok: true, triggerValue: value, triggerPrice, referencePrice };
}

/** The Save All sentence (spec §8) for a draft of `symbol` that failed with `check`. */
export function saveAllMessage(symbol: string, check: Extract<DraftCheck, { ok: false }>): string {
  switch (check.problem) {
    case 'value':
      return SAVE_ALL_MESSAGES.noValidRules;
    case 'price':
      return SAVE_ALL_MESSAGES.noPrice(symbol);
    case 'invalid':
      return SAVE_ALL_MESSAGES.invalidTrigger(symbol);
    case 'fires_at_once':
      return `${symbol}: ${check.error}`;
    case 'bounds':
      return SAVE_ALL_MESSAGES.outOfRange(symbol, check.bounds!.min, check.bounds!.max);
  }
}

export interface SaveAllDraft extends RuleDraftInput {
  symbol: string;
}

export type SaveAllPlan<D extends SaveAllDraft> =
  | { ok: true; rules: Array<{ draft: D; triggerValue: number; triggerPrice: number }>; skipped: D[] }
  | { ok: false; error: string; errors: string[] };

/**
 * Save All (spec §5): drafts without a trigger value > 0 are skipped; none left is an error.
 * Every remaining draft must pass; `error` is the first problem, `errors` all of them.
 */
export function planSaveAll<D extends SaveAllDraft>(drafts: readonly D[]): SaveAllPlan<D> {
  const skipped: D[] = [];
  const candidates: D[] = [];
  for (const draft of drafts) {
    const value = parseTriggerValue(draft.triggerValue);
    (Number.isFinite(value) && value > 0 ? candidates : skipped).push(draft);
  }
  if (candidates.length === 0) {
    return { ok: false, error: SAVE_ALL_MESSAGES.noValidRules, errors: [SAVE_ALL_MESSAGES.noValidRules] };
  }
  const rules: Array<{ draft: D; triggerValue: number; triggerPrice: number }> = [];
  const errors: string[] = [];
  for (const draft of candidates) {
    const check = validateRuleDraft(draft);
    if (check.ok) rules.push({ draft, triggerValue: check.triggerValue, triggerPrice: check.triggerPrice });
    else errors.push(saveAllMessage(draft.symbol, check));
  }
  if (errors.length > 0) return { ok: false, error: errors[0]!, errors };
  return { ok: true, rules, skipped };
}
