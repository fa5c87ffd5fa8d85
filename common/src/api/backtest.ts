/**
 * POST /api/position-rules/backtest (docs/api.md; the simulation's rules in docs/exit-rules.md,
 * "ATR stops and the backtest"): a rule's fields as the create-rule API takes them, plus the
 * ATR kind for stop losses, the instrument and 1, 3 or 5 years.
 */
import { z } from 'zod';
import type { BacktestResult, BacktestRule } from '../history/backtest.ts';
import { symbolSchema } from '../instruments/symbol.ts';
import { RULE_KINDS, TRIGGER_TYPE_MESSAGE, TRIGGER_TYPES } from '../rules/kinds.ts';
import { DEFAULT_REARM_PERCENT } from '../rules/rearm.ts';
import { VALUE_TYPES } from '../rules/types.ts';
import { ATR_LIMITS, VALUE_TYPE_TRAITS } from '../rules/value-types.ts';
import { decimalInput, storedAmount } from './numbers.ts';
import { exchangeInput, ruleFields } from './rules.ts';

/** The windows a user may choose. */
export const BACKTEST_YEARS = [1, 3, 5] as const;
export type BacktestYears = (typeof BACKTEST_YEARS)[number];

/** `years`: 1, 3 or 5 (the rule dialogs' backtest and Price Guard's preview). */
export const backtestYearsInput = z.preprocess(
  decimalInput,
  z.union(
    BACKTEST_YEARS.map((y) => z.literal(y)),
    { error: 'years must be 1, 3 or 5' },
  ),
);

export const backtestBody = z
  .object({
    symbol: symbolSchema,
    exchange: exchangeInput.default('NSE'),
    years: backtestYearsInput,
    trigger_type: z.enum(TRIGGER_TYPES, { error: TRIGGER_TYPE_MESSAGE }),
    value_type: z
      .enum(VALUE_TYPES, { error: 'value_type must be PRICE, PERCENT, ABSOLUTE or ATR' })
      .default('PERCENT'),
    trigger_value: storedAmount('Trigger value', 'Please enter a valid trigger value greater than 0'),
    atr_period: ruleFields.shape.atr_period.default(ATR_LIMITS.defaultPeriod),
    rearm: ruleFields.shape.rearm.default('never'),
    rearm_percent: ruleFields.shape.rearm_percent.default(DEFAULT_REARM_PERCENT),
  })
  .superRefine((body, ctx) => {
    const kind = RULE_KINDS[body.trigger_type];
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (body.value_type === 'ATR') {
      if (kind.direction === 'above') issue('value_type', 'An ATR level is for stop losses only');
      else if (body.trigger_value < ATR_LIMITS.minMultiple || body.trigger_value > ATR_LIMITS.maxMultiple)
        issue(
          'trigger_value',
          `The ATR multiple must be from ${ATR_LIMITS.minMultiple} to ${ATR_LIMITS.maxMultiple}`,
        );
      return;
    }
    if (kind.trails && !VALUE_TYPE_TRAITS[body.value_type].trails)
      issue('value_type', 'A trailing stop follows the price: give it a percent or rupees, not a price');
    if (body.value_type === 'PERCENT' && kind.direction === 'below' && body.trigger_value >= 100)
      issue('trigger_value', 'A stop loss percent must be below 100');
  });
export type BacktestInput = z.infer<typeof backtestBody>;

/** The request's rule as the backtest takes it. */
export function backtestRuleOf(input: BacktestInput): BacktestRule {
  const rearm = { rearm: input.rearm, rearmPercent: input.rearm_percent };
  if (input.value_type === 'ATR' && input.trigger_type !== 'TAKE_PROFIT') {
    return {
      triggerType: input.trigger_type,
      valueType: 'ATR',
      triggerValue: input.trigger_value,
      atrPeriod: input.atr_period,
      ...rearm,
    };
  }
  const valueType = input.value_type === 'ATR' ? 'PERCENT' : input.value_type;
  return { triggerType: input.trigger_type, valueType, triggerValue: input.trigger_value, ...rearm };
}

/** The answer: the backtest's figures and each day's close and level (common/src/history/backtest.ts). */
export type ApiBacktest = BacktestResult;
