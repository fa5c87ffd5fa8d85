/**
 * What one `alert` push changes in the lists a tab already holds, so it patches them instead of
 * fetching them again: the rule or price alert is triggered, the bell has one more unread item.
 * The same values the server's claim writes (rules/claim.ts): inactive, triggered at the
 * execution's time, one more execution, its level at the price that fired.
 */
import { REARM_EXECUTION } from './rearm.ts';
import type { ApiPositionRule, ApiRuleExecution } from './responses.ts';
import type { ApiPriceAlert } from '../api/price-alerts.ts';

/** The bell's feed: the newest this many items (GET /api/alerts answers as many). */
export const ALERT_FEED_LIMIT = 50;

/**
 * The rule after `execution` fired it (unchanged when the execution is not its own, or is a
 * re-arming: the `rules:changed` that follows it brings the rule as re-armed, or waiting).
 */
export function firedRule(rule: ApiPositionRule, execution: ApiRuleExecution): ApiPositionRule {
  if (execution.rule_id !== rule.id || !rule.is_active || execution.execution_type === REARM_EXECUTION)
    return rule;
  return {
    ...rule,
    is_active: false,
    status: 'TRIGGERED',
    execution_count: rule.execution_count + 1,
    computed_trigger_price: execution.trigger_price,
    last_triggered_at: execution.executed_at,
    updated_at: execution.executed_at,
  };
}

/** The price alert after `execution` fired it (unchanged when the execution is not its own). */
export function firedPriceAlert(alert: ApiPriceAlert, execution: ApiRuleExecution): ApiPriceAlert {
  if (execution.price_alert_id !== alert.id || !alert.is_active) return alert;
  return { ...alert, is_active: false, status: 'TRIGGERED', triggered_at: execution.executed_at };
}

/** The bell's feed with the new execution first (once), and its unread count. */
export function withFiredItem(
  feed: readonly ApiRuleExecution[],
  unread: number,
  execution: ApiRuleExecution,
  limit: number,
): { feed: ApiRuleExecution[]; unread: number } {
  if (feed.some((item) => item.id === execution.id)) return { feed: [...feed], unread };
  return { feed: [execution, ...feed].slice(0, limit), unread: unread + (execution.read ? 0 : 1) };
}
