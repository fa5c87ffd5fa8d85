/**
 * Position rules and executions on the wire (docs/exit-rules.md, Routes): request body schemas shared by the
 * server and the client, and the shapes the API answers with. Price alerts: ./price-alerts.ts.
 */
import { z } from 'zod';
import { symbolSchema } from '../instruments/symbol.ts';
import { EXCHANGES } from '../instruments/types.ts';
import { isoDate } from './dates.ts';
import { decimalInput, storedAmount } from './numbers.ts';
import { RULE_MESSAGES } from '../rules/messages.ts';
import { MAX_DELIVERY_IDS } from '../rules/responses.ts';
import { ENABLE_LEVELS } from '../rules/enabling.ts';
import { TRIGGER_TYPE_MESSAGE } from '../rules/kinds.ts';
import { ATR_LIMITS } from '../rules/value-types.ts';
import { DEFAULT_REARM_PERCENT, MAX_REARM_PERCENT, MIN_REARM_PERCENT, REARM_MODES } from '../rules/rearm.ts';
import {
  ACTION_TYPES,
  ORDER_TYPES,
  REFERENCE_KINDS,
  RULE_SCOPES,
  SELL_QUANTITY_TYPES,
  TRIGGER_TYPES,
  VALUE_TYPES,
  type ActionType,
  type RuleScope,
} from '../rules/types.ts';

/** An exchange as a request gives it: NSE or BSE, any case, trimmed. */
export const exchangeInput = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toUpperCase() : value),
  z.enum(EXCHANGES, { error: 'Exchange must be NSE or BSE' }),
);

/** `all` / `specific` (the template dialog's words) are accepted for the API's names. */
const ruleScope = z.preprocess(
  (value) => (value === 'all' ? 'all_holdings' : value === 'specific' ? 'specific_account' : value),
  z.enum(RULE_SCOPES, { error: 'rule_scope must be all_holdings or specific_account' }),
);

const ATR_PERIOD_MESSAGE = `atr_period must be a whole number from ${ATR_LIMITS.minPeriod} to ${ATR_LIMITS.maxPeriod}`;
const ATR_MULTIPLE_MESSAGE = `An ATR stop's multiple must be from ${ATR_LIMITS.minMultiple} to ${ATR_LIMITS.maxMultiple}`;

/** An ATR stop's multiple k in its range (a refinement: the value type may come from the stored rule). */
function checkAtrMultiple(rule: { value_type?: string; trigger_value?: number }, ctx: z.RefinementCtx) {
  const k = rule.trigger_value;
  if (rule.value_type !== 'ATR' || k === undefined) return;
  if (k < ATR_LIMITS.minMultiple || k > ATR_LIMITS.maxMultiple)
    ctx.addIssue({ code: 'custom', path: ['trigger_value'], message: ATR_MULTIPLE_MESSAGE });
}

const REARM_PERCENT_MESSAGE = `rearm_percent must be a number from ${MIN_REARM_PERCENT} to ${MAX_REARM_PERCENT}`;

/** Every field a rule may be given; create and update add their defaults and checks. */
export const ruleFields = z.object({
  rule_name: z.string().trim().max(100, { error: 'Rule name can be at most 100 characters' }),
  rule_scope: ruleScope,
  target_account_id: z.uuid({ error: 'target_account_id must be an account id' }).nullable(),
  action_type: z.enum(ACTION_TYPES, { error: 'action_type must be ALERT or SELL' }),
  trigger_type: z.enum(TRIGGER_TYPES, { error: TRIGGER_TYPE_MESSAGE }),
  trigger_value: storedAmount('Trigger value', RULE_MESSAGES.triggerValue),
  /** PRICE: the value is the level itself; PERCENT or ABSOLUTE (rupees) measure it from the reference. */
  value_type: z.enum(VALUE_TYPES, { error: 'value_type must be PRICE, PERCENT, ABSOLUTE or ATR' }),
  /** ATR stops: the period n of ATR(n), 5 to 100 (22 when not given); `trigger_value` is the multiple k. */
  atr_period: z.preprocess(
    decimalInput,
    z
      .number({ error: ATR_PERIOD_MESSAGE })
      .int({ error: ATR_PERIOD_MESSAGE })
      .min(ATR_LIMITS.minPeriod, { error: ATR_PERIOD_MESSAGE })
      .max(ATR_LIMITS.maxPeriod, { error: ATR_PERIOD_MESSAGE }),
  ),
  /** Which price the trigger is measured from; `buy_price` is the holding's average price. */
  reference: z.enum(REFERENCE_KINDS, { error: 'reference must be current or buy_price' }),
  sell_quantity_type: z.enum(SELL_QUANTITY_TYPES),
  sell_quantity_value: storedAmount(
    'Quantity to sell',
    'Please enter a quantity to sell greater than 0',
  ).nullable(),
  order_type: z.enum(ORDER_TYPES),
  limit_price: storedAmount('Limit price', 'Limit price must be greater than 0').nullable(),
  priority: z.preprocess(decimalInput, z.number().int().min(1).max(100)),
  /** The client's preview; the server computes its own from its latest quote. */
  computed_trigger_price: z.unknown(),
  /** Template application sends `true`; new rules are always active. */
  is_active: z.boolean(),
  /** `after_recovery`: after firing, re-armed once the price recovers `rearm_percent` past its level. */
  rearm: z.enum(REARM_MODES, { error: 'rearm must be never or after_recovery' }),
  rearm_percent: z.preprocess(
    decimalInput,
    z
      .number({ error: REARM_PERCENT_MESSAGE })
      .min(MIN_REARM_PERCENT, { error: REARM_PERCENT_MESSAGE })
      .max(MAX_REARM_PERCENT, { error: REARM_PERCENT_MESSAGE }),
  ),
});

type RuleChecks = { action_type?: ActionType; rule_scope?: RuleScope; target_account_id?: string | null };

function refuseSell(rule: RuleChecks, ctx: z.RefinementCtx) {
  if (rule.action_type === 'SELL') {
    ctx.addIssue({ code: 'custom', path: ['action_type'], message: RULE_MESSAGES.sellComingSoon });
  }
}

/** POST /api/position-rules: one rule. SELL is refused for now. */
export const createRuleBody = ruleFields
  .extend({
    symbol: symbolSchema,
    exchange: exchangeInput.default('NSE'),
    rule_name: ruleFields.shape.rule_name.optional(),
    rule_scope: ruleScope.default('all_holdings'),
    target_account_id: ruleFields.shape.target_account_id.optional(),
    action_type: ruleFields.shape.action_type.default('ALERT'),
    value_type: ruleFields.shape.value_type.default('PERCENT'),
    reference: ruleFields.shape.reference.default('current'),
    sell_quantity_type: ruleFields.shape.sell_quantity_type.default('ALL_REMAINING'),
    sell_quantity_value: ruleFields.shape.sell_quantity_value.optional(),
    order_type: ruleFields.shape.order_type.default('MARKET'),
    limit_price: ruleFields.shape.limit_price.optional(),
    priority: ruleFields.shape.priority.default(1),
    computed_trigger_price: ruleFields.shape.computed_trigger_price.optional(),
    is_active: ruleFields.shape.is_active.optional(),
    rearm: ruleFields.shape.rearm.default('never'),
    rearm_percent: ruleFields.shape.rearm_percent.default(DEFAULT_REARM_PERCENT),
    atr_period: ruleFields.shape.atr_period.default(ATR_LIMITS.defaultPeriod),
  })
  .superRefine((rule, ctx) => {
    refuseSell(rule, ctx);
    checkAtrMultiple(rule, ctx);
    if (rule.rule_scope === 'specific_account' && !rule.target_account_id) {
      ctx.addIssue({ code: 'custom', path: ['target_account_id'], message: RULE_MESSAGES.accountRequired });
    }
  });
export type CreateRuleInput = z.infer<typeof createRuleBody>;

/** POST /api/position-rules/bulk: `{rules: [...]}` or a bare list; what can be armed is saved, the rest listed in `skipped`. */
export const bulkCreateRulesBody = z.preprocess(
  (value) => (Array.isArray(value) ? { rules: value } : value),
  z.object({
    rules: z
      .array(createRuleBody, { error: 'rules must be a list' })
      .min(1, { error: 'No valid rules to save. Ensure trigger values are > 0.' })
      .max(500, { error: 'At most 500 rules can be saved at once' }),
  }),
);
export type BulkCreateRulesInput = z.infer<typeof bulkCreateRulesBody>;

/** PUT /api/position-rules/:id: any of the rule's fields; symbol and exchange stay. */
export const updateRuleBody = ruleFields
  .partial()
  .superRefine((rule, ctx) => {
    refuseSell(rule, ctx);
    checkAtrMultiple(rule, ctx);
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), {
    error: 'Nothing to change: send at least one field',
  });
export type UpdateRuleInput = z.infer<typeof updateRuleBody>;

/** PATCH /api/position-rules/:id: enable (re-arms from the current price) or disable. */
export const patchRuleBody = z.object({
  is_active: z.boolean({ error: 'is_active must be true or false' }),
  /**
   * Enabling: `keep` (the default) leaves a fixed stop's or target's level where it is;
   * `from_price` measures it again from the current price (the user said so when asked).
   */
  level: z.enum(ENABLE_LEVELS, { error: 'level must be keep or from_price' }).default('keep'),
});
export type PatchRuleInput = z.infer<typeof patchRuleBody>;

/** POST /api/position-rules/bulk-action. */
export const bulkRuleActionBody = z.object({
  ids: z
    .array(z.string().max(64), { error: 'ids must be a list of rule ids' })
    .min(1, { error: 'Choose at least one rule' })
    .max(500, { error: 'At most 500 rules at once' }),
  action: z.enum(['enable', 'disable', 'delete'], { error: 'action must be enable, disable or delete' }),
});
export type BulkRuleActionInput = z.infer<typeof bulkRuleActionBody>;

/** GET /api/position-rules?symbol=&exchange=: the user's rules, all or one instrument's. */
export const listRulesQuery = z.object({
  symbol: z.string().trim().toUpperCase().max(40).optional(),
  exchange: z.enum(EXCHANGES).optional(),
  /** A page, newest first: without `limit`, every rule (at most the tier's 500 or 2,000). */
  limit: z.coerce
    .number({ error: 'limit must be a whole number from 1 to 500' })
    .int({ error: 'limit must be a whole number from 1 to 500' })
    .min(1, { error: 'limit must be a whole number from 1 to 500' })
    .max(500, { error: 'limit must be a whole number from 1 to 500' })
    .optional(),
  offset: z.coerce
    .number({ error: 'offset must be a whole number from 0' })
    .int({ error: 'offset must be a whole number from 0' })
    .min(0, { error: 'offset must be a whole number from 0' })
    .max(100_000, { error: 'offset must be a whole number from 0' })
    .default(0),
});
export type ListRulesQuery = z.infer<typeof listRulesQuery>;

/** GET /api/position-rules/current-prices?symbols=A,B[&exchange=NSE]. */
export const currentPricesQuery = z.object({
  symbols: z
    .string({ error: 'symbols is required' })
    .transform((text) => [
      ...new Set(
        text
          .split(',')
          .map((s) => s.trim().toUpperCase())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(z.string().max(40)).min(1, { error: 'symbols is required' }).max(500)),
  exchange: exchangeInput.optional(),
});
export type CurrentPricesQuery = z.infer<typeof currentPricesQuery>;

/** GET /api/rule-executions. Defaults: the last 30 days, 50 rows. */
export const executionsQuery = z.object({
  start_date: isoDate('start_date').optional(),
  end_date: isoDate('end_date').optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
});
export type ExecutionsQuery = z.infer<typeof executionsQuery>;

export const DELIVERY_IDS_MESSAGE = `ids: give 1 to ${MAX_DELIVERY_IDS} execution ids, separated by commas`;

/** GET /api/rule-executions/deliveries?ids=a,b: History's refresh of rows whose status changed. */
export const executionDeliveriesQuery = z.object({
  ids: z
    .string({ error: DELIVERY_IDS_MESSAGE })
    .transform((s) => [...new Set(s.split(',').map((id) => id.trim()))])
    .pipe(
      z
        .array(z.uuid({ error: DELIVERY_IDS_MESSAGE }))
        .min(1, DELIVERY_IDS_MESSAGE)
        .max(MAX_DELIVERY_IDS, DELIVERY_IDS_MESSAGE),
    ),
});

/** GET /api/alerts/history?days=30 (1 to 730). */
export const alertHistoryQuery = z.object({
  days: z.coerce.number().int().min(1).max(730).default(30),
});

/** The shapes the rules and executions routes answer with. */
export type * from '../rules/responses.ts';
