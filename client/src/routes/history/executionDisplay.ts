/** How an execution reads on the History page (spec §2 History, §3 Rule execution). Pure. */
import { CORPORATE_ACTION_EXECUTION } from '@app/common/corporate-actions/describe';
import { DIGEST_EXECUTION } from '@app/common/digest/index';
import { formatInr, formatIstDateTime } from '@app/common/format/index';
import type { AlertExecution } from '@app/common/realtime/events';
import { REARM_EXECUTION } from '@app/common/rules/rearm';

/** One History row as `GET /api/rule-executions` lists it (`rule_name` when the server names it). */
export type HistoryExecution = AlertExecution & { rule_name?: string | null };

export interface ExecutionsPage {
  executions: HistoryExecution[];
  total: number;
}

/** The Time Period choices; 30 days is the default (spec §9). */
export const PERIODS = [
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
] as const;
export type PeriodDays = (typeof PERIODS)[number]['days'];
export const DEFAULT_PERIOD: PeriodDays = 30;

export const NO_DETAILS = 'No additional details';

/** 'TRAILING_STOP_LOSS' → 'TRAILING STOP LOSS'; a re-arming 'Re-armed · TRAILING STOP LOSS'. */
export function ruleTypeLabel(triggerType: string, executionType?: string): string {
  const label = triggerType.replace(/_/g, ' ');
  return executionType === REARM_EXECUTION ? `Re-armed · ${label}` : label;
}

export type StatusTone = 'gain' | 'loss' | 'warning';

/** Recorded and shown in the app, but not emailed (over the monthly quota, or no verified email). */
export const IN_APP_ONLY = 'IN_APP_ONLY';

/**
 * SUCCESS is green, FAILED red, anything else (pending, IN_APP_ONLY) yellow (spec §2 History,
 * §3 Rule execution).
 */
export function statusTone(status: string): StatusTone {
  if (status === 'SUCCESS') return 'gain';
  if (status === 'FAILED') return 'loss';
  return 'warning';
}

/** The status as shown: 'In-app only' for IN_APP_ONLY, PENDING when empty, otherwise as sent. */
export function statusLabel(status: string): string {
  if (status === IN_APP_ONLY) return 'In-app only';
  return status || 'PENDING';
}

/** The IST date and time on two lines: `['22/11/2026', '14:05:09']`. */
export function triggeredAtLines(executedAt: string): [string, string] {
  const [date = '', time = ''] = formatIstDateTime(executedAt).split(', ');
  return [date, time];
}

/** The query window: from now minus `days` to now, as ISO strings. */
export function periodWindow(days: number, now = Date.now()): { start_date: string; end_date: string } {
  return {
    start_date: new Date(now - days * 86_400_000).toISOString(),
    end_date: new Date(now).toISOString(),
  };
}

/** One labelled price of an execution: 'Trigger' '₹2,697.00'. */
export interface PriceLine {
  label: string;
  value: string;
}

/**
 * The prices an execution shows, as the table's line and a phone's card both label them: the
 * rule's level and the price that crossed it ('Trigger', or 'Re-arm price' for a re-arm, then
 * 'Hit at'); a corporate action's level before and after it ('Adjusted ₹2,850.00 → ₹1,425.00');
 * a digest none.
 */
export function executionPriceLines(execution: AlertExecution): PriceLine[] {
  const trigger = formatInr(execution.trigger_price);
  const hit = formatInr(execution.execution_price);
  switch (execution.execution_type) {
    case DIGEST_EXECUTION:
      return [];
    case CORPORATE_ACTION_EXECUTION:
      return [{ label: 'Adjusted', value: `${trigger} → ${hit}` }];
    case REARM_EXECUTION:
      return [
        { label: 'Re-arm price', value: trigger },
        { label: 'Hit at', value: hit },
      ];
    default:
      return [
        { label: 'Trigger', value: trigger },
        { label: 'Hit at', value: hit },
      ];
  }
}
