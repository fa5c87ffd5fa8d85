/**
 * How saved rules read on the Holdings page (pure, unit-tested): which rules an account row
 * shows, their status words, a trailing stop's live peak and trigger level, and the last check
 * ("₹2,410.50 · 3.2% away · checked 10:41 IST").
 */
import type { ApiPositionRule, RuleStatus } from '@app/common/api/rules';
import { formatIstDate, formatIstTime } from '@app/common/format/ist';
import { formatInr } from '@app/common/format/money';
import { formatPercent } from '@app/common/format/percent';
import type { Exchange } from '@app/common/instruments/types';
import {
  computeTriggerPrice,
  distanceToLevel,
  RULE_KINDS,
  VALUE_TYPE_TRAITS,
  updateTrailingPeak,
} from '@app/common/rules/index';

/** The status words (docs/exit-rules.md): Triggered is shown in orange. */
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
  // A trailing ATR stop's level rises only at night, from closes: what the server stored.
  if (
    rule.status !== 'ACTIVE' ||
    !RULE_KINDS[rule.trigger_type].trails ||
    VALUE_TYPE_TRAITS[rule.value_type].fromBars
  ) {
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

/** The price a rule was last checked against, when, and how far the price must still move. */
export interface RuleCheck {
  price: number;
  /** Epoch ms. */
  checkedAt: number;
  /** % of the price: positive = not yet crossed (common distanceToLevel). */
  distance: number | null;
}

/** A live quote as the store holds it; a stale one (the feed could not refresh it) is not checked. */
export interface CheckQuote {
  ltp: number;
  asOf: number;
  stale?: true;
}

/**
 * The last check to show. The server's (`last_price` at `last_checked_at`) until a newer live
 * quote arrives: the engine checks every active rule against each batch of its instrument, so
 * that quote is the newer check, measured against the live `level` (a trailing stop's rises).
 * A rule that is off is not checked: null, as before the first quote.
 */
export function lastCheck(
  rule: Pick<
    ApiPositionRule,
    'status' | 'trigger_type' | 'last_price' | 'last_checked_at' | 'distance_percent'
  >,
  live: CheckQuote | undefined,
  level: number,
): RuleCheck | null {
  if (rule.status !== 'ACTIVE') return null;
  const checked = rule.last_checked_at === null ? null : Date.parse(rule.last_checked_at);
  if (live && !live.stale && live.ltp > 0 && (checked === null || live.asOf > checked)) {
    return {
      price: live.ltp,
      checkedAt: live.asOf,
      distance: distanceToLevel({ triggerType: rule.trigger_type, triggerPrice: level }, live.ltp),
    };
  }
  if (rule.last_price === null || checked === null) return null;
  return { price: rule.last_price, checkedAt: checked, distance: rule.distance_percent };
}

/** '3.2% away', '0.04% away', 'at the level', '1.5% past the level'. */
export function distanceText(distance: number): string {
  if (distance === 0) return 'at the level';
  const digits = Math.abs(distance) < 1 ? 2 : 1;
  const amount = formatPercent(Math.abs(distance), { fractionDigits: digits });
  return distance > 0 ? `${amount} away` : `${amount} past the level`;
}

/**
 * A rule's last check in parts, shown joined by ' · ': "₹2,410.50 · 3.2% away · checked 10:41
 * IST" (the date too when not checked today, IST), or "Not checked yet" for an active rule without
 * a quote. Null for a rule that is off. A line wraps between the parts, never inside one.
 */
export function checkParts(
  status: RuleStatus,
  check: RuleCheck | null,
  now: number = Date.now(),
): string[] | null {
  if (status !== 'ACTIVE') return null;
  if (!check) return ['Not checked yet'];
  const sameDay = formatIstDate(check.checkedAt) === formatIstDate(now);
  const time = formatIstTime(check.checkedAt, { seconds: false });
  const when = sameDay ? time : `${formatIstDate(check.checkedAt)} ${time}`;
  const parts = [formatInr(check.price)];
  if (check.distance !== null) parts.push(distanceText(check.distance));
  parts.push(`checked ${when} IST`);
  return parts;
}

/** Manage Rules' orders: by symbol (as listed), or nearest to firing first (unchecked rules last). */
export type RuleOrder = 'symbol' | 'distance';

export function sortRules<R extends Pick<ApiPositionRule, 'symbol' | 'created_at'>>(
  rules: readonly R[],
  order: RuleOrder,
  distanceOf: (rule: R) => number | null,
): R[] {
  const bySymbol = (a: R, b: R) =>
    a.symbol.localeCompare(b.symbol) || a.created_at.localeCompare(b.created_at);
  if (order === 'symbol') return [...rules].sort(bySymbol);
  const key = (rule: R) => distanceOf(rule) ?? Infinity;
  return [...rules].sort((a, b) => key(a) - key(b) || bySymbol(a, b));
}
