/**
 * POST /api/price-guard/backtest (docs/exit-rules.md, "Price Guard's preview"): the rule Price
 * Guard would give every holding, and the years to replay it over; the answer's shape.
 */
import { z } from 'zod';
import type { Exchange } from '../instruments/types.ts';
import { PRICE_GUARD_RULE } from '../rules/price-guard.ts';
import { DEFAULT_REARM_PERCENT } from '../rules/rearm.ts';
import { backtestYearsInput, type BacktestYears } from './backtest.ts';
import { decimalInput } from './numbers.ts';
import { ruleFields } from './rules.ts';

const VALUE_MESSAGE = 'trigger_value must be a percent above 0 and below 100, or rupees above 0';

/**
 * Price Guard's rule as it takes it (a stop, in percent or rupees below the price: a price is
 * one stock's level, not every holding's), Price Guard's own by default, and `years`.
 */
export const priceGuardBacktestBody = z
  .object({
    trigger_type: z
      .enum(['TRAILING_STOP_LOSS', 'FIXED_STOP_LOSS'], {
        error: 'trigger_type must be TRAILING_STOP_LOSS or FIXED_STOP_LOSS',
      })
      .default('TRAILING_STOP_LOSS'),
    value_type: z
      .enum(['PERCENT', 'ABSOLUTE'], { error: 'value_type must be PERCENT or ABSOLUTE' })
      .default('PERCENT'),
    trigger_value: z
      .preprocess(decimalInput, z.number({ error: VALUE_MESSAGE }).positive({ error: VALUE_MESSAGE }))
      .default(PRICE_GUARD_RULE.trigger_value),
    rearm: ruleFields.shape.rearm.default('never'),
    rearm_percent: ruleFields.shape.rearm_percent.default(DEFAULT_REARM_PERCENT),
    years: backtestYearsInput.default(3),
  })
  .refine((b) => b.value_type !== 'PERCENT' || b.trigger_value < 100, {
    error: VALUE_MESSAGE,
    path: ['trigger_value'],
  });
export type PriceGuardBacktestInput = z.infer<typeof priceGuardBacktestBody>;

/** The 429's sentence past 20 previews a minute. */
export const PREVIEW_LIMIT_MESSAGE = 'Too many previews in a minute: try again shortly.';

/** One holding in one account, as the preview names it. */
export interface GuardPreviewTarget {
  symbol: string;
  exchange: Exchange;
  account_id: string;
  /** The account's display name ('Zerodha · main'). */
  account: string;
}

/** One holding's replay: the rule's, and the ATR stop's whipsaws over the same days. */
export interface GuardPreviewRow extends GuardPreviewTarget {
  from: string;
  to: string;
  fired: number;
  whipsaws: number;
  rule_return_percent: number;
  hold_return_percent: number;
  atr_fired: number;
  atr_whipsaws: number;
}

/** A holding the preview could not replay: no daily history yet, or too little. */
export interface GuardPreviewLeftOut extends GuardPreviewTarget {
  reason: 'no_history' | 'too_short';
  /** Trading days still missing ('too_short' only). */
  days_needed: number | null;
  /** 'No daily history yet', 'Needs 13 more days of history'. */
  message: string;
}

/** The ATR stop the preview compares with: k × ATR(n) below the price, trailing when the rule trails. */
export interface GuardAtrRule {
  trigger_type: 'TRAILING_STOP_LOSS' | 'FIXED_STOP_LOSS';
  value_type: 'ATR';
  trigger_value: number;
  atr_period: number;
}

export interface PriceGuardBacktest {
  years: BacktestYears;
  totals: { holdings: number; fired: number; whipsaws: number };
  holdings: GuardPreviewRow[];
  left_out: GuardPreviewLeftOut[];
  atr_rule: GuardAtrRule;
  /** The holdings where the ATR stop whipsawed less, and the whipsaws of both on them; null when none. */
  suggestion: { holdings: number; whipsaws: number; atr_whipsaws: number } | null;
}
