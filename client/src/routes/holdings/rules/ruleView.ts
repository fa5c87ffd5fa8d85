/**
 * How saved rules read on the Holdings page (pure, unit-tested): which rules an account row
 * shows, their status words, and a trailing stop's live peak and trigger level.
 */
import type { ApiPositionRule, RuleStatus } from '@app/common/api/rules';
import type { Exchange } from '@app/common/instruments/types';
import { computeTriggerPrice, updateTrailingPeak, type TriggerType } from '@app/common/rules/index';

/** The trigger types, as the rule forms offer them. */
export const TRIGGER_CHOICES: readonly { value: TriggerType; label: string }[] = [
  { value: 'TRAILING_STOP_LOSS', label: 'Trailing stop loss' },
  { value: 'FIXED_STOP_LOSS', label: 'Fixed stop loss' },
  { value: 'TAKE_PROFIT', label: 'Take profit' },
];

/** The status words (spec §4 Rule display): Triggered is shown in orange. */
export const STATUS_LABELS: Record<RuleStatus, string> = {
  ACTIVE: 'Active',
  TRIGGERED: 'Triggered',
  INACTIVE: 'Inactive',
};

const STATUS_ORDER: Record<RuleStatus, number> = { ACTIVE: 0, TRIGGERED: 1, INACTIVE: 2 };

/** The rules of one account's holding: same instrument, for all accounts or for this one. */
export function rulesForAccount(
  rules: readonly ApiPositionRule[],
  symbol: string,
  exchange: Exchange,
  accountId: string | number | null,
): ApiPositionRule[] {
  return rules
    .filter(
      (rule) =>
        rule.symbol === symbol &&
        rule.exchange === exchange &&
        (rule.rule_scope === 'all_holdings' ||
          (accountId !== null && String(rule.target_account_id) === String(accountId))),
    )
    .sort(
      (a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || a.created_at.localeCompare(b.created_at),
    );
}

/** A `rules:levels` entry. */
export interface PushedLevel {
  peak_price: number | null;
  computed_trigger_price: number;
}

export interface LiveLevels {
  peak: number | null;
  trigger: number;
}

/**
 * The level to show now. A stopped or disabled rule keeps its stored level. An active trailing
 * stop takes the highest of its stored peak, the last pushed peak and the live price, and its
 * trigger follows that peak; it only ever rises.
 */
export function liveLevels(
  rule: Pick<
    ApiPositionRule,
    | 'status'
    | 'trigger_type'
    | 'trigger_value'
    | 'value_type'
    | 'peak_price'
    | 'reference_price'
    | 'computed_trigger_price'
  >,
  pushed: PushedLevel | undefined,
  ltp: number | null | undefined,
): LiveLevels {
  if (rule.status !== 'ACTIVE' || rule.trigger_type !== 'TRAILING_STOP_LOSS') {
    return { peak: rule.peak_price, trigger: rule.computed_trigger_price };
  }
  let peak = rule.peak_price ?? rule.reference_price;
  if (pushed?.peak_price != null) peak = updateTrailingPeak(peak, pushed.peak_price);
  if (typeof ltp === 'number' && ltp > 0) peak = updateTrailingPeak(peak, ltp);
  const computed = computeTriggerPrice({
    triggerType: rule.trigger_type,
    valueType: rule.value_type,
    triggerValue: rule.trigger_value,
    referencePrice: rule.reference_price,
    peakPrice: peak,
  });
  const trigger = Math.max(computed, rule.computed_trigger_price, pushed?.computed_trigger_price ?? 0);
  return { peak, trigger };
}

export interface RulesTally {
  active: number;
  triggered: number;
  inactive: number;
}

/** How many rules are in each state (the rules bar above the table). */
export function tallyRules(rules: readonly Pick<ApiPositionRule, 'status'>[]): RulesTally {
  const tally: RulesTally = { active: 0, triggered: 0, inactive: 0 };
  for (const rule of rules) {
    if (rule.status === 'ACTIVE') tally.active += 1;
    else if (rule.status === 'TRIGGERED') tally.triggered += 1;
    else tally.inactive += 1;
  }
  return tally;
}
