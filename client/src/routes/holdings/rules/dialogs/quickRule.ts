/**
 * The one-screen rule form (issue #28 item 8), pure and unit-tested: a holding, the account(s),
 * the kind, the level (a price by default, as a Kite GTT's trigger price), and a name generated
 * from the rest unless the user types one. The 4-step wizard stays for the full flow.
 */
import type { AggregatedHolding } from '@app/common/portfolio/types';
import {
  ATR_LIMITS,
  describeRule,
  fittingValueType,
  parseTriggerValue,
  validateRuleDraft,
  type DraftCheck,
  type TriggerType,
  type ValueType,
} from '@app/common/rules/index';
import type { NewRule } from '../rulesApi.ts';
import { atrProblem, splitHoldingKey, valueAfterUnitChange } from './wizardForm.ts';

export interface QuickRuleForm {
  /** `NSE:RELIANCE`, or '' before one is chosen. */
  holding: string;
  /** null: every account holding it (`all_holdings`); else one account's id. */
  accountId: string | null;
  trigger_type: TriggerType;
  value_type: ValueType;
  /** As typed: digits and one dot (for an ATR stop, the multiple). */
  trigger_value: string;
  /** An ATR stop's period as typed (digits). */
  atr_period: string;
  /** As typed; blank means the generated name. */
  rule_name: string;
}

/** A fixed stop at a price the user types: the commonest rule, and Kite's GTT. */
export function initialQuickRule(holding: string): QuickRuleForm {
  return {
    holding,
    accountId: null,
    trigger_type: 'FIXED_STOP_LOSS',
    value_type: 'PRICE',
    trigger_value: '',
    atr_period: String(ATR_LIMITS.defaultPeriod),
    rule_name: '',
  };
}

/** A change of unit: switching to ATR puts the default multiple in the value. */
export function withUnit(form: QuickRuleForm, unit: ValueType): QuickRuleForm {
  return {
    ...form,
    value_type: unit,
    trigger_value: valueAfterUnitChange(form.value_type, unit, form.trigger_value),
  };
}

/** A change of kind keeps the unit when it fits (a trailing stop cannot be a price). */
export function withKind(form: QuickRuleForm, kind: TriggerType): QuickRuleForm {
  return { ...form, trigger_type: kind, value_type: fittingValueType(kind, form.value_type) };
}

/** The level at the live price, or why it cannot be set. */
export function quickRulePreview(form: QuickRuleForm, ltp: number | null | undefined): DraftCheck {
  return validateRuleDraft({
    triggerType: form.trigger_type,
    valueType: form.value_type,
    triggerValue: form.trigger_value,
    currentPrice: ltp,
  });
}

/** The name the rule gets when none is typed ('Fixed stop loss at ₹1,400.00'), or null before a value. */
export function generatedName(form: QuickRuleForm): string | null {
  const value = parseTriggerValue(form.trigger_value);
  if (!Number.isFinite(value) || value <= 0) return null;
  return describeRule({ trigger_type: form.trigger_type, trigger_value: value, value_type: form.value_type });
}

/**
 * Why the form cannot be sent, or null: a holding, then the level's own check (a missing live
 * price does not stop it: the server sets the level from its own quote).
 */
export function quickRuleProblem(form: QuickRuleForm, ltp: number | null | undefined): string | null {
  if (!form.holding) return 'Please choose a holding';
  const atr = atrProblem(form);
  if (atr) return atr;
  const check = quickRulePreview(form, ltp);
  return check.ok || check.problem === 'price' ? null : check.error;
}

/** The POST /api/position-rules body: an alert; the name left to the server when none is typed. */
export function quickRuleRequest(form: QuickRuleForm, ltp: number | null | undefined): NewRule {
  const { exchange, symbol } = splitHoldingKey(form.holding);
  const check = quickRulePreview(form, ltp);
  const name = form.rule_name.trim();
  return {
    symbol,
    exchange,
    ...(name ? { rule_name: name } : {}),
    rule_scope: form.accountId ? 'specific_account' : 'all_holdings',
    target_account_id: form.accountId,
    action_type: 'ALERT',
    trigger_type: form.trigger_type,
    trigger_value: parseTriggerValue(form.trigger_value),
    value_type: form.value_type,
    ...(form.value_type === 'ATR' ? { atr_period: Number(form.atr_period) } : {}),
    ...(check.ok ? { computed_trigger_price: check.triggerPrice } : {}),
  };
}

/** The accounts holding the chosen stock, as the form offers them. */
export function quickRuleAccounts(row: AggregatedHolding | undefined): string[] {
  return (row?.accounts ?? []).flatMap((a) =>
    a.broker_account_id === null ? [] : [String(a.broker_account_id)],
  );
}
