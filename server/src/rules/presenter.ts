/** A stored rule as the API shows it (docs/exit-rules.md, Routes), with its status and latest price. */
import type { ApiRuleAdjustment } from '@app/common/api/corporate-actions';
import type { ApiPositionRule, RuleStatus } from '@app/common/api/rules';
import { atrStopReason } from '@app/common/history/atr-stop';
import { distanceToLevel, RULE_KINDS } from '@app/common/rules/index';
import type { positionRules } from '../db/schema.ts';

export type RuleRow = typeof positionRules.$inferSelect;

const num = (v: string | null) => (v === null ? null : Number(v));

/**
 * Active; Triggered when it fired and is waiting to re-arm, or fired and nobody touched it since
 * (the claim sets updated_at and last_triggered_at to the same instant); otherwise Inactive
 * (disabled by the user).
 */
export function ruleStatus(
  row: Pick<RuleRow, 'isActive' | 'lastTriggeredAt' | 'updatedAt' | 'rearmAt'>,
): RuleStatus {
  if (row.isActive) return 'ACTIVE';
  if (row.rearmAt !== null) return 'TRIGGERED';
  if (row.lastTriggeredAt && row.lastTriggeredAt.getTime() >= row.updatedAt.getTime()) return 'TRIGGERED';
  return 'INACTIVE';
}

/** The latest quote of a rule's instrument: its price and when it was quoted. */
export interface RuleQuote {
  ltp: number;
  asOf: Date;
}

/**
 * The last check of an active rule: the engine checks every active rule in each batch of its
 * instrument, so the latest stored quote is the price it was last checked against (no write to
 * the rule per batch). A rule that is off is not checked.
 */
function lastCheck(row: RuleRow, quote: RuleQuote | null) {
  if (!row.isActive || !quote) return { last_price: null, last_checked_at: null, distance_percent: null };
  return {
    last_price: quote.ltp,
    last_checked_at: quote.asOf.toISOString(),
    distance_percent: distanceToLevel(
      { triggerType: row.triggerType, triggerPrice: Number(row.computedTriggerPrice) },
      quote.ltp,
    ),
  };
}

/** An ATR stop's reason ('3 × ATR(22) = ₹84.20 below the high of ₹2,520.00'); null for other rules. */
function levelReason(row: RuleRow): string | null {
  if (row.valueType !== 'ATR' || row.atrPeriod === null || row.atrValue === null) return null;
  const trailing = RULE_KINDS[row.triggerType].trails;
  return atrStopReason({
    multiple: Number(row.triggerValue),
    period: row.atrPeriod,
    atr: Number(row.atrValue),
    base: Number(trailing ? (row.peakPrice ?? row.referencePrice) : row.referencePrice),
    trailing,
  });
}

/**
 * The rule as the API answers it; `quote` is its instrument's latest quote, when there is one;
 * `adjustments` its corporate-action adjustments (rules/list.ts loads them).
 */
export function presentRule(
  row: RuleRow,
  quote: RuleQuote | null = null,
  adjustments: ApiRuleAdjustment[] = [],
): ApiPositionRule {
  const currentPrice = quote?.ltp ?? null;
  return {
    id: row.id,
    symbol: row.symbol,
    exchange: row.exchange,
    rule_name: row.ruleName,
    rule_scope: row.ruleScope,
    target_account_id: row.targetAccountId,
    action_type: row.actionType,
    trigger_type: row.triggerType,
    trigger_value: Number(row.triggerValue),
    value_type: row.valueType,
    reference: row.reference,
    reference_price: Number(row.referencePrice),
    peak_price: num(row.peakPrice),
    computed_trigger_price: Number(row.computedTriggerPrice),
    atr_period: row.atrPeriod,
    atr_value: num(row.atrValue),
    atr_as_of: row.atrAsOf,
    level_reason: levelReason(row),
    sell_quantity_type: row.sellQuantityType,
    sell_quantity_value: num(row.sellQuantityValue),
    order_type: row.orderType,
    limit_price: num(row.limitPrice),
    is_active: row.isActive,
    paused_at_broker: row.pausedAtBroker,
    status: ruleStatus(row),
    rearm: row.rearm,
    rearm_percent: Number(row.rearmPercent),
    rearm_at: num(row.rearmAt),
    priority: row.priority,
    execution_count: row.executionCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    last_triggered_at: row.lastTriggeredAt?.toISOString() ?? null,
    current_price: currentPrice,
    adjustments,
    ...lastCheck(row, quote),
  };
}
