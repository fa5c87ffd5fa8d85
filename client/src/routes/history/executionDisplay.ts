/** How an execution reads on the History page (docs/exit-rules.md, History). Pure. */
import { BROKER_SYNC_EXECUTION } from '@app/common/api/brokers';
import { CORPORATE_ACTION_EXECUTION } from '@app/common/corporate-actions/describe';
import { DIGEST_EXECUTION, DIGEST_HISTORY_LABEL } from '@app/common/digest/index';
import { formatInr, formatIstDateTime } from '@app/common/format/index';
import type { ApiDelivery } from '@app/common/api/rules';
import type { Channel, DeliveryStatus } from '@app/common/notifications/channels';
import { TEST_EXECUTION, TEST_HISTORY_LABEL } from '@app/common/notifications/test-notice';
import type { AlertExecution } from '@app/common/realtime/events';
import { executionKindLabel } from '@app/common/rules/describe';
import { PRICE_GUARD_EXECUTION } from '@app/common/rules/price-guard';
import { REARM_EXECUTION } from '@app/common/rules/rearm';

/**
 * One History row as `GET /api/rule-executions` lists it (`rule_name` when the server names it),
 * with where its notice went.
 */
export type HistoryExecution = AlertExecution & { rule_name?: string | null; deliveries: ApiDelivery[] };

export interface ExecutionsPage {
  executions: HistoryExecution[];
  total: number;
}

/** The Time Period choices; 30 days is the default. */
export const PERIODS = [
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
] as const;
export type PeriodDays = (typeof PERIODS)[number]['days'];
export const DEFAULT_PERIOD: PeriodDays = 30;

export const NO_DETAILS = 'No additional details';

/** 'TRAILING_STOP_LOSS' → 'Trailing stop loss'; a re-arming 'Re-armed · Trailing stop loss'. */
export function ruleTypeLabel(triggerType: string, executionType?: string): string {
  const label = executionKindLabel(triggerType);
  return executionType === REARM_EXECUTION ? `Re-armed · ${label}` : label;
}

export type StatusTone = 'gain' | 'loss' | 'warning';

/** Recorded and shown in the app, but not emailed (over the monthly quota, or no verified email). */
export const IN_APP_ONLY = 'IN_APP_ONLY';

/**
 * SUCCESS is green, FAILED red, anything else (pending, IN_APP_ONLY) yellow
 * (docs/exit-rules.md, History).
 */
export function statusTone(status: string): StatusTone {
  if (status === 'SUCCESS') return 'gain';
  if (status === 'FAILED') return 'loss';
  return 'warning';
}

const STATUS_LABELS: Record<string, string> = {
  SUCCESS: 'Alert sent',
  FAILED: 'Not sent',
  PENDING: 'Sending',
  RETRYING: 'Retrying',
  [IN_APP_ONLY]: 'In-app only',
};

/** History rows that are not alerts: their status is 'Sent', not 'Alert sent'. */
const NOT_ALERTS: ReadonlySet<string | undefined> = new Set([
  DIGEST_EXECUTION,
  CORPORATE_ACTION_EXECUTION,
  TEST_EXECUTION,
]);

/**
 * The status in words: 'Alert sent' (SUCCESS; 'Sent' for a digest, a notice or a test, which are
 * not alerts), 'Not sent', 'Sending' (pending or empty), 'Retrying', 'In-app only'; any other in
 * sentence case.
 */
export function statusLabel(status: string, executionType?: string): string {
  if (status === 'SUCCESS' && NOT_ALERTS.has(executionType)) return 'Sent';
  const known = STATUS_LABELS[status || 'PENDING'];
  if (known) return known;
  const words = status.replace(/_/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
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
 * a digest or a test none.
 */
export function executionPriceLines(execution: AlertExecution): PriceLine[] {
  const trigger = formatInr(execution.trigger_price);
  const hit = formatInr(execution.execution_price);
  switch (execution.execution_type) {
    case DIGEST_EXECUTION:
    case TEST_EXECUTION:
    case BROKER_SYNC_EXECUTION:
      return [];
    case CORPORATE_ACTION_EXECUTION:
      return [{ label: 'Adjusted', value: `${trigger} → ${hit}` }];
    case REARM_EXECUTION:
      return [
        { label: 'Re-arm price', value: trigger },
        { label: 'Hit at', value: hit },
      ];
    case PRICE_GUARD_EXECUTION:
      return [
        { label: 'Level set', value: trigger },
        { label: 'First price', value: hit },
      ];
    default:
      return [
        { label: 'Trigger', value: trigger },
        { label: 'Hit at', value: hit },
      ];
  }
}

/**
 * What a broker sync's History row is about ("Zerodha sync: 1 added" is its message, "Broker
 * sync" its type): the account's holdings, not one instrument.
 */
const BROKER_SYNC_HISTORY_LABEL = 'Holdings';

/** A row that names no instrument, by its execution type: what History shows instead. */
const SUBJECT_LABELS: Readonly<Record<string, string>> = {
  [DIGEST_EXECUTION]: DIGEST_HISTORY_LABEL,
  [TEST_EXECUTION]: TEST_HISTORY_LABEL,
  [BROKER_SYNC_EXECUTION]: BROKER_SYNC_HISTORY_LABEL,
};

/** What a row is about, in words: the stock, 'Evening digest' or 'Test message'. */
export function executionSubject(execution: AlertExecution): string {
  return SUBJECT_LABELS[execution.execution_type] ?? execution.symbol;
}

/** The label of a row that names no instrument (a digest, a test), else null. */
export function subjectLabel(execution: AlertExecution): string | null {
  return SUBJECT_LABELS[execution.execution_type] ?? null;
}

/** The channels as History names them. */
export const CHANNEL_LABELS: Record<Channel, string> = {
  email: 'Email',
  webpush: 'Push',
  telegram: 'Telegram',
  whatsapp: 'WhatsApp',
};

/**
 * What a channel can truthfully say (docs/notifications.md#where-each-alert-went): Telegram and a
 * push service never report delivery or reading, so they stop at 'sent' and 'accepted'.
 */
export function shownDeliveryStatus({
  channel,
  status,
}: Pick<ApiDelivery, 'channel' | 'status'>): DeliveryStatus {
  if (status !== 'delivered' && status !== 'read') return status;
  if (channel === 'telegram') return 'sent';
  if (channel === 'webpush') return 'accepted';
  return status;
}

/** 'Email sent', 'Push accepted', 'WhatsApp read', 'Telegram failed'. */
export function deliveryBadgeText(delivery: Pick<ApiDelivery, 'channel' | 'status'>): string {
  return `${CHANNEL_LABELS[delivery.channel]} ${shownDeliveryStatus(delivery)}`;
}

/** The status as a word in the details list: 'Sent', 'Queued'. */
export function deliveryStatusWord(delivery: Pick<ApiDelivery, 'channel' | 'status'>): string {
  const status = shownDeliveryStatus(delivery);
  return status.charAt(0).toUpperCase() + status.slice(1);
}

/** Failed red, delivered and read green, sent and accepted blue, queued grey. */
export function deliveryTone(status: DeliveryStatus): 'loss' | 'gain' | 'primary' | 'neutral' {
  if (status === 'failed') return 'loss';
  if (status === 'delivered' || status === 'read') return 'gain';
  if (status === 'queued') return 'neutral';
  return 'primary';
}

/** When a delivery reached its status, in IST: '27/11/2026, 10:31:05 IST'. */
export function deliveryTime(at: string): string {
  return `${formatIstDateTime(at)} IST`;
}
