/** Rule drafts and Save All (docs/exit-rules.md): checks before saving. */
import { firesAtOnceMessage, noPriceReason, RULE_MESSAGES, SAVE_ALL_MESSAGES } from './messages.ts';
import { amountMessage, amountProblem } from '../api/numbers.ts';
import { computeTriggerPrice, isCrossed, triggerBounds } from './trigger.ts';
import type { ActionType, TriggerType, ValueType } from './types.ts';
import {
  ATR_LIMITS,
  ATR_PROBLEM,
  atrValuesFit,
  unfitMessage,
  VALUE_TYPE_TRAITS,
  valueTypeFits,
} from './value-types.ts';

/** The draft every account row starts with: alert, trailing stop loss, 7 percent (docs/exit-rules.md). */
export const DEFAULT_RULE_DRAFT = Object.freeze({
  action_type: 'ALERT' as ActionType,
  trigger_type: 'TRAILING_STOP_LOSS' as TriggerType,
  trigger_value: 7,
  value_type: 'PERCENT' as ValueType,
});

/** Where a form would preview an ATR stop's level. */
export const ATR_LEVEL_ON_SAVE =
  "The level is set from the stock's daily history (its ATR) when you save the rule.";

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

/** A usable price: a number > 0. */
function hasPrice(price: number | null | undefined): price is number {
  return typeof price === 'number' && Number.isFinite(price) && price > 0;
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
  /** ATR stops: the stock's ATR(n). */
  atr?: number;
}

/**
 * Why a draft cannot be saved, so callers pick their own sentence without reading ours.
 * `fires_at_once`: the price has already crossed the level (a stop at or above it, a take
 * profit at or below it), which only a rule measured from the buy price can be. `atr`: an ATR
 * stop's multiple or period is out of its range (checkDraftToSave only).
 */
export type DraftProblem = 'value' | 'unfit' | 'price' | 'invalid' | 'fires_at_once' | 'bounds' | 'atr';

/** The allowed band, and the computed level when the user typed a distance rather than the price. */
export interface DraftBounds {
  min: number;
  max: number;
  level?: number;
}

export type DraftCheck =
  | { ok: true; triggerValue: number; triggerPrice: number; referencePrice: number }
  | { ok: false; problem: DraftProblem; error: string; bounds?: DraftBounds };

/**
 * The draft checks of docs/exit-rules.md, in order: trigger value > 0 (and one the column keeps); a
 * value type the trigger type can use (`unfit`: a trailing stop at a price); a current price > 0;
 * the computed trigger price (2 decimals) > 0; not already crossed by the current price (it would
 * fire at once); and within 10%–200% of the current price. `error` is the documented text
 * (docs/exit-rules.md), or the crossed-level sentence.
 */
export function validateRuleDraft(input: RuleDraftInput): DraftCheck {
  const value = parseTriggerValue(input.triggerValue);
  if (!Number.isFinite(value) || value <= 0) {
    return { ok: false, problem: 'value', error: RULE_MESSAGES.triggerValue };
  }
  const stored = amountProblem(value);
  if (stored) return { ok: false, problem: 'value', error: amountMessage('Trigger value', stored) };
  if (!valueTypeFits(input.triggerType, input.valueType)) {
    return { ok: false, problem: 'unfit', error: unfitMessage(input.valueType) };
  }
  const current = input.currentPrice;
  if (!hasPrice(current)) {
    return { ok: false, problem: 'price', error: RULE_MESSAGES.noPrice };
  }
  // An ATR stop's level needs the stock's ATR, which only the server's daily history has: the
  // form cannot preview it, and the server sets it when the rule is saved (no price, as it were).
  if (VALUE_TYPE_TRAITS[input.valueType].fromBars && input.atr === undefined) {
    return { ok: false, problem: 'price', error: ATR_LEVEL_ON_SAVE };
  }
  const referencePrice = input.referencePrice ?? current;
  const triggerPrice = computeTriggerPrice({
    triggerType: input.triggerType,
    valueType: input.valueType,
    triggerValue: value,
    referencePrice,
    peakPrice: input.peakPrice,
    atr: input.atr,
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
  const band = triggerBounds(current);
  if (triggerPrice < band.min || triggerPrice > band.max) {
    const bounds: DraftBounds = input.valueType === 'PRICE' ? band : { ...band, level: triggerPrice };
    return {
      ok: false,
      problem: 'bounds',
      error: RULE_MESSAGES.outOfRange(bounds.min, bounds.max, bounds.level),
      bounds,
    };
  }
  return { ok: true, triggerValue: value, triggerPrice, referencePrice };
}

/**
 * Why a draft of `symbol` cannot be saved, as Save All lists it (the texts of docs/exit-rules.md). A missing price
 * says whether one will come (`listed`: the symbol is in the exchange list).
 */
export function saveAllMessage(
  symbol: string,
  check: Extract<DraftCheck, { ok: false }>,
  listed = true,
): string {
  switch (check.problem) {
    case 'value':
      return SAVE_ALL_MESSAGES.noValidRules;
    case 'price':
      return noPriceReason(symbol, listed);
    case 'invalid':
      return SAVE_ALL_MESSAGES.invalidTrigger(symbol);
    case 'unfit':
    case 'fires_at_once':
    case 'atr':
      return `${symbol}: ${check.error}`;
    case 'bounds':
      return SAVE_ALL_MESSAGES.outOfRange(symbol, check.bounds!.min, check.bounds!.max, check.bounds!.level);
  }
}

/** A draft as it is sent: an ATR stop also has its period (22 when missing). */
export interface DraftToSave extends RuleDraftInput {
  atrPeriod?: number | string;
}

/** A draft that can be sent: its level, or null for an ATR stop (the server sets it when saved). */
export type SaveCheck =
  { ok: true; triggerValue: number; triggerPrice: number | null } | Extract<DraftCheck, { ok: false }>;

/**
 * The checks of validateRuleDraft before a draft is sent, save that an ATR stop with a live price
 * passes without a level (only the server's daily history gives it one; a holding without
 * enough history is refused there, with the days it needs) once its multiple and period are in
 * range. An ATR stop with no price is refused as any other.
 */
export function checkDraftToSave(draft: DraftToSave): SaveCheck {
  const check = validateRuleDraft(draft);
  if (check.ok) return check;
  // The price check comes before the ATR one: a price problem with a price is the ATR's.
  const levelOnSave =
    check.problem === 'price' && VALUE_TYPE_TRAITS[draft.valueType].fromBars && hasPrice(draft.currentPrice);
  if (!levelOnSave) return check;
  if (!atrValuesFit(parseTriggerValue(draft.triggerValue), draft.atrPeriod ?? ATR_LIMITS.defaultPeriod)) {
    return { ok: false, problem: 'atr', error: ATR_PROBLEM };
  }
  return { ok: true, triggerValue: parseTriggerValue(draft.triggerValue), triggerPrice: null };
}

export interface SaveAllDraft extends DraftToSave {
  symbol: string;
  /** False when the symbol is not in the exchange list (it will never have a price). */
  listed?: boolean;
}

export type SaveAllPlan<D extends SaveAllDraft> =
  | {
      ok: true;
      /** The drafts that pass, to save; an ATR stop's level is null (the server sets it). */
      rules: Array<{ draft: D; triggerValue: number; triggerPrice: number | null }>;
      /** Drafts without a trigger value: left as they are. */
      skipped: D[];
      /** Drafts that cannot be saved now, each with its reason: they stay drafts, the rest are saved. */
      refused: Array<{ draft: D; reason: string }>;
    }
  | { ok: false; error: string; errors: string[] };

/**
 * Save All (docs/exit-rules.md, issue #28): drafts without a trigger value > 0 are skipped, and none left
 * is an error. Of the rest, each draft that passes is saved (an ATR stop with a price passes
 * without a level: checkDraftToSave); one that cannot be saved (no price, out of range) does not
 * hold the others back: it is `refused` with its reason.
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
  const rules: Array<{ draft: D; triggerValue: number; triggerPrice: number | null }> = [];
  const refused: Array<{ draft: D; reason: string }> = [];
  for (const draft of candidates) {
    const check = checkDraftToSave(draft);
    if (check.ok) rules.push({ draft, triggerValue: check.triggerValue, triggerPrice: check.triggerPrice });
    else refused.push({ draft, reason: saveAllMessage(draft.symbol, check, draft.listed ?? true) });
  }
  return { ok: true, rules, skipped, refused };
}
