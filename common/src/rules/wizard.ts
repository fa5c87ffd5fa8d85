/**
 * The Create Position Rule wizard (4 steps) and the Apply Rule Templates dialog
 * (docs/exit-rules.md, Drafts, the wizard and templates). Objects here use the API's field names,
 * so a finished wizard state is a request body.
 */
import { parseTriggerValue } from './draft.ts';
import { RULE_MESSAGES } from './messages.ts';
import { ATR_LIMITS } from './value-types.ts';
import type {
  ActionType,
  OrderType,
  ReferenceKind,
  RuleScope,
  SellQuantityType,
  TriggerType,
  ValueType,
} from './types.ts';

/**
 * Wizard defaults (docs/exit-rules.md): trailing stop loss 10, sell all remaining, market order, priority 1.
 */
export const WIZARD_DEFAULTS = Object.freeze({
  rule_name: '',
  rule_scope: 'all_holdings' as RuleScope,
  target_account_id: null as string | null,
  action_type: 'ALERT' as ActionType,
  trigger_type: 'TRAILING_STOP_LOSS' as TriggerType,
  trigger_value: 10,
  value_type: 'PERCENT' as ValueType,
  sell_quantity_type: 'ALL_REMAINING' as SellQuantityType,
  sell_quantity_value: null as number | null,
  order_type: 'MARKET' as OrderType,
  priority: 1,
});

export const WIZARD_STEPS = 4;

export interface WizardState {
  rule_name: string;
  rule_scope: RuleScope;
  target_account_id: string | null;
  action_type: ActionType;
  trigger_value: number | string | null;
  sell_quantity_type: SellQuantityType;
  sell_quantity_value: number | string | null;
}

export const WIZARD_MESSAGES = {
  name: 'Please enter a rule name',
  account: 'Please choose all holdings or an account',
  trigger: RULE_MESSAGES.triggerValue,
  quantity: 'Please enter a quantity to sell greater than 0',
} as const;

/**
 * Why the wizard cannot leave `step`, or null when Next may proceed: 1 a non-blank name;
 * 2 all holdings or a chosen account; 3 a trigger value > 0; 4 ALERT, or SELL with all
 * remaining or a quantity > 0.
 */
export function wizardStepError(step: number, state: WizardState): string | null {
  switch (step) {
    case 1:
      return state.rule_name.trim() ? null : WIZARD_MESSAGES.name;
    case 2:
      return state.rule_scope === 'all_holdings' || state.target_account_id ? null : WIZARD_MESSAGES.account;
    case 3: {
      const value = parseTriggerValue(state.trigger_value);
      return Number.isFinite(value) && value > 0 ? null : WIZARD_MESSAGES.trigger;
    }
    case 4: {
      if (state.action_type === 'ALERT' || state.sell_quantity_type === 'ALL_REMAINING') return null;
      const quantity = parseTriggerValue(state.sell_quantity_value);
      return Number.isFinite(quantity) && quantity > 0 ? null : WIZARD_MESSAGES.quantity;
    }
    default:
      return null;
  }
}

/** Whether Next (or Create, on step 4) is enabled. */
export function canLeaveWizardStep(step: number, state: WizardState): boolean {
  return wizardStepError(step, state) === null;
}

/** A rule template (Apply Templates: docs/exit-rules.md), with the price its trigger is measured from. */
export interface RuleTemplate {
  id: string;
  name: string;
  description: string;
  action_type: ActionType;
  trigger_type: TriggerType;
  trigger_value: number;
  value_type: ValueType;
  /** An ATR stop's period n (`trigger_value` is its multiple k); 22 when missing. */
  atr_period?: number;
  reference: ReferenceKind;
  sell_quantity_type: SellQuantityType;
  sell_quantity_value: number | null;
  order_type: OrderType;
}

/**
 * The built-in templates: alert when the price falls 5% below the purchase price; and the
 * volatility stop, a trailing 3 × ATR(22) below the highest close from today's price (set from
 * each stock's daily history when applied).
 */
export const BUILT_IN_TEMPLATES: readonly RuleTemplate[] = Object.freeze([
  Object.freeze({
    id: 'builtin-fixed-stop-5',
    name: '5% Fixed Stop Loss',
    description: 'Alert when the price falls 5% below your purchase price',
    action_type: 'ALERT',
    trigger_type: 'FIXED_STOP_LOSS',
    trigger_value: 5,
    value_type: 'PERCENT',
    reference: 'buy_price',
    sell_quantity_type: 'ALL_REMAINING',
    sell_quantity_value: null,
    order_type: 'MARKET',
  } satisfies RuleTemplate),
  Object.freeze({
    id: 'builtin-atr-stop-3x22',
    name: `Volatility stop (${ATR_LIMITS.defaultMultiple} × ATR(${ATR_LIMITS.defaultPeriod}))`,
    description: `Alert when the price falls ${ATR_LIMITS.defaultMultiple} times its usual daily swing (ATR over ${ATR_LIMITS.defaultPeriod} days) below its highest close since you apply it`,
    action_type: 'ALERT',
    trigger_type: 'TRAILING_STOP_LOSS',
    trigger_value: ATR_LIMITS.defaultMultiple,
    value_type: 'ATR',
    atr_period: ATR_LIMITS.defaultPeriod,
    reference: 'current',
    sell_quantity_type: 'ALL_REMAINING',
    sell_quantity_value: null,
    order_type: 'MARKET',
  } satisfies RuleTemplate),
]);

export interface TemplateDialogState {
  template_id: string | null;
  /** Instrument keys (`NSE:RELIANCE`) of the chosen holdings. */
  holdings: readonly string[];
  /** `all` / `specific` as the dialog says them, or the API's names. */
  scope: 'all' | 'specific' | RuleScope;
  account_id: string | null;
}

export const TEMPLATE_MESSAGES = {
  template: 'Please choose a template',
  holdings: 'Please choose at least one holding',
  account: 'Please choose an account',
} as const;

/** A template and at least one holding are needed, and an account if the scope is specific. */
export function templateDialogError(state: TemplateDialogState): string | null {
  if (!state.template_id) return TEMPLATE_MESSAGES.template;
  if (state.holdings.length === 0) return TEMPLATE_MESSAGES.holdings;
  const specific = state.scope === 'specific' || state.scope === 'specific_account';
  if (specific && !state.account_id) return TEMPLATE_MESSAGES.account;
  return null;
}

/**
 * The POST /api/position-rules/bulk body of a template applied to holdings (`NSE:RELIANCE`
 * keys). A buy-price template on a holding held in several accounts gives one rule per account
 * (`accountsOf` lists them), so each is measured from that account's own buy price, not from
 * the weighted average across accounts.
 */
export function templateRules(
  template: RuleTemplate,
  state: TemplateDialogState,
  accountsOf: (key: string) => readonly string[] = () => [],
) {
  const specific = state.scope === 'specific' || state.scope === 'specific_account';
  const targets = state.holdings.flatMap((key) => {
    const accounts = accountsOf(key);
    if (specific) return [{ key, account: state.account_id }];
    if (template.reference !== 'buy_price' || accounts.length < 2) return [{ key, account: null }];
    return accounts.map((account) => ({ key, account }));
  });
  return targets.map(({ key, account }) => {
    const [exchange = 'NSE', symbol = key] = key.includes(':') ? key.split(':') : ['NSE', key];
    return {
      symbol,
      exchange: exchange === 'BSE' ? ('BSE' as const) : ('NSE' as const),
      rule_name: template.name,
      rule_scope: (account ? 'specific_account' : 'all_holdings') as RuleScope,
      target_account_id: account,
      action_type: template.action_type,
      trigger_type: template.trigger_type,
      trigger_value: template.trigger_value,
      value_type: template.value_type,
      ...(template.atr_period === undefined ? {} : { atr_period: template.atr_period }),
      reference: template.reference,
      sell_quantity_type: template.sell_quantity_type,
      sell_quantity_value: template.sell_quantity_value,
      order_type: template.order_type,
      priority: 1,
      is_active: true,
    };
  });
}
