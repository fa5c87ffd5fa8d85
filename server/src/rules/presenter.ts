/** A stored rule as the API shows it (spec §3 Position rule), with its status and latest price. */
import type { ApiRuleAdjustment } from '@app/common/api/corporate-actions';
import type { ApiPositionRule, RuleStatus } from '@app/common/api/rules';
import type { positionRules } from '../db/schema.ts';

export type RuleRow = typeof positionRules.$inferSelect;

const num = (v: string | null) => (v === null ? null : Number(v));

/**
 * Active; Triggered when it fired and nobody touched it since (the claim sets updated_at and
 * last_triggered_at to the same instant); otherwise Inactive (disabled by the user).
 */
export function ruleStatus(row: Pick<RuleRow, 'isActive' | 'lastTriggeredAt' | 'updatedAt'>): RuleStatus {
  if (row.isActive) return 'ACTIVE';
  if (row.lastTriggeredAt && row.lastTriggeredAt.getTime() >= row.updatedAt.getTime()) return 'TRIGGERED';
  return 'INACTIVE';
}

/**
 * The rule as the API answers it; `currentPrice` is the latest quote, when there is one;
 * `adjustments` its corporate-action adjustments (rules/list.ts loads them).
 */
export function presentRule(
  row: RuleRow,
  currentPrice: number | null = null,
  adjustments: ApiRuleAdjustment[] = [],
): ApiPositionRule {
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
    sell_quantity_type: row.sellQuantityType,
    sell_quantity_value: num(row.sellQuantityValue),
    order_type: row.orderType,
    limit_price: num(row.limitPrice),
    is_active: row.isActive,
    status: ruleStatus(row),
    priority: row.priority,
    execution_count: row.executionCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    last_triggered_at: row.lastTriggeredAt?.toISOString() ?? null,
    current_price: currentPrice,
    adjustments,
  };
}
