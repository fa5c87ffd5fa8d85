/**
 * The Create Position Rule wizard's form (docs/exit-rules.md), pure and unit-tested: its
 * defaults, what stops each step, and the request it sends. Field names are the API's.
 */
import type { Exchange } from '@app/common/instruments/types';
import {
  ATR_LIMITS,
  ATR_PROBLEM,
  atrValuesFit,
  DEFAULT_REARM_PERCENT,
  MAX_REARM_PERCENT,
  MIN_REARM_PERCENT,
  validateRuleDraft,
  WIZARD_DEFAULTS,
  wizardStepError,
  type DraftCheck,
  type RearmMode,
  type TriggerType,
  type ValueType,
  type WizardState,
} from '@app/common/rules/index';
import type { NewRule } from '../rulesApi.ts';

export const WIZARD_STEP_NAMES = ['Name', 'Scope', 'Trigger', 'Action'] as const;

export interface WizardForm extends WizardState {
  /** The holding the rule is for: `NSE:RELIANCE`. */
  holding: string;
  trigger_type: TriggerType;
  value_type: ValueType;
  trigger_value: string;
  order_type: typeof WIZARD_DEFAULTS.order_type;
  priority: number;
  /** Step 3's "Re-arm after the price recovers" and its percent, as typed. */
  rearm: RearmMode;
  rearm_percent: string;
  /** An ATR stop's period n, as typed (the multiple k is `trigger_value`). */
  atr_period: string;
}

export const REARM_PERCENT_PROBLEM = `Re-arm percent must be from ${MIN_REARM_PERCENT} to ${MAX_REARM_PERCENT}`;

/** Trailing stop loss 10, sell all remaining, market order, priority 1. */
export function initialWizardForm(holding: string): WizardForm {
  return {
    ...WIZARD_DEFAULTS,
    holding,
    trigger_value: String(WIZARD_DEFAULTS.trigger_value),
    rearm: 'never',
    rearm_percent: String(DEFAULT_REARM_PERCENT),
    atr_period: String(ATR_LIMITS.defaultPeriod),
  };
}

/**
 * Why an ATR stop's multiple or period cannot be saved, or null (any other value type: null): the
 * wizard, the one-screen New Rule and Edit share it.
 */
export function atrProblem(
  form: Pick<WizardForm, 'value_type' | 'trigger_value' | 'atr_period'>,
): string | null {
  if (form.value_type !== 'ATR') return null;
  return atrValuesFit(form.trigger_value, form.atr_period) ? null : ATR_PROBLEM;
}

/**
 * The value a form shows after its unit changes: the default multiple (3) on switching to ATR,
 * since a percent or a price typed before means nothing as a multiple; else what was typed.
 */
export function valueAfterUnitChange(from: ValueType, to: ValueType, typed: string): string {
  return to === 'ATR' && from !== 'ATR' ? String(ATR_LIMITS.defaultMultiple) : typed;
}

/** `NSE:RELIANCE` → its parts. */
export function splitHoldingKey(key: string): { exchange: Exchange; symbol: string } {
  const at = key.indexOf(':');
  const exchange = key.slice(0, at) === 'BSE' ? 'BSE' : 'NSE';
  return { exchange, symbol: key.slice(at + 1) };
}

/** The trigger at the live price (step 3's preview). */
export function wizardPreview(form: WizardForm, ltp: number | null | undefined): DraftCheck {
  return validateRuleDraft({
    triggerType: form.trigger_type,
    valueType: form.value_type,
    triggerValue: form.trigger_value,
    currentPrice: ltp,
  });
}

/**
 * Why Next cannot leave `step`, or null: the checks of docs/exit-rules.md (wizardStepError), and on step 3 a
 * trigger price that would be refused (out of the 10%–200% band). A missing live price does not
 * stop the wizard: the server arms the rule from its own quote.
 */
export function wizardProblem(step: number, form: WizardForm, ltp: number | null | undefined): string | null {
  const basic = wizardStepError(step, form);
  if (basic) return basic;
  if (step === 1 && !form.holding) return 'Please choose a holding';
  if (step === 3) {
    const atr = atrProblem(form);
    if (atr) return atr;
    const check = wizardPreview(form, ltp);
    if (!check.ok && check.problem !== 'price') return check.error;
    const percent = Number(form.rearm_percent);
    const percentOk =
      form.rearm_percent !== '' && percent >= MIN_REARM_PERCENT && percent <= MAX_REARM_PERCENT;
    if (form.rearm === 'after_recovery' && !percentOk) return REARM_PERCENT_PROBLEM;
  }
  return null;
}

/** The POST /api/position-rules body of a finished wizard. */
export function wizardRequest(form: WizardForm, ltp: number | null | undefined): NewRule {
  const { exchange, symbol } = splitHoldingKey(form.holding);
  const check = wizardPreview(form, ltp);
  const specific = form.rule_scope === 'specific_account';
  return {
    symbol,
    exchange,
    rule_name: form.rule_name.trim(),
    rule_scope: form.rule_scope,
    target_account_id: specific ? form.target_account_id : null,
    action_type: form.action_type,
    trigger_type: form.trigger_type,
    trigger_value: Number(form.trigger_value),
    value_type: form.value_type,
    ...(form.value_type === 'ATR' ? { atr_period: Number(form.atr_period) } : {}),
    sell_quantity_type: form.sell_quantity_type,
    sell_quantity_value: form.sell_quantity_value === null ? null : Number(form.sell_quantity_value),
    order_type: form.order_type,
    priority: form.priority,
    ...(form.rearm === 'after_recovery'
      ? { rearm: form.rearm, rearm_percent: Number(form.rearm_percent) }
      : {}),
    ...(check.ok ? { computed_trigger_price: check.triggerPrice } : {}),
  };
}
