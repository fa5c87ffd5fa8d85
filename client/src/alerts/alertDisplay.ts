/**
 * How alerts read behind the bell and in toasts (pure, unit-tested): titles per trigger type,
 * the bell's accessible name, feed times in IST, and the price-alert sentence.
 */
import { BROKER_SYNC_EXECUTION } from '@app/common/api/brokers';
import { CORPORATE_ACTION_EXECUTION } from '@app/common/corporate-actions/describe';
import { formatIstDateTime } from '@app/common/format/ist';
import { formatInr } from '@app/common/format/money';
import type { AlertExecution } from '@app/common/realtime/events';
import { kindOf, PRICE_GUARD_EXECUTION, REARM_EXECUTION, triggerTypeLabel } from '@app/common/rules/index';

/** Titles of what is not a kind of alert (kinds.ts gives each kind's `hitTitle`). */
const TITLES: Record<string, string> = {
  // Corporate actions (execution_type CORPORATE_ACTION): levels adjusted, nothing fired.
  BONUS: 'Rules adjusted for a bonus',
  SPLIT: 'Rules adjusted for a split',
  // A broker sync (execution_type BROKER_SYNC): holdings changed, nothing fired, no instrument.
  [BROKER_SYNC_EXECUTION]: 'Broker sync',
};

/**
 * 'Trailing stop hit', 'Price alert', 'Re-armed' (a rule armed again), 'Protected by Price Guard'
 * (a rule set on a holding's first price); an unknown type in words.
 */
export function alertTitle(triggerType: string, executionType?: string): string {
  if (executionType === REARM_EXECUTION) return 'Re-armed';
  if (executionType === PRICE_GUARD_EXECUTION) return 'Protected by Price Guard';
  return kindOf(triggerType)?.hitTitle ?? TITLES[triggerType] ?? triggerTypeLabel(triggerType);
}

/** 'RELIANCE · Trailing stop hit'; a notice about no one instrument (a broker sync) its title alone. */
export function alertHeading(
  execution: Pick<AlertExecution, 'symbol' | 'trigger_type' | 'execution_type'>,
): string {
  const title = alertTitle(execution.trigger_type, execution.execution_type);
  return execution.symbol ? `${execution.symbol} · ${title}` : title;
}

export interface ToastContent {
  id: string;
  /** 'RELIANCE · Trailing stop hit'. */
  title: string;
  /** The crossing sentence, or the trigger and the price that crossed it. */
  body: string;
  /** 'LTP ₹1,400.00'; null for a broker sync, which has no price. */
  ltp: string | null;
  /** Set when no email went out (over the monthly limit, or no verified address). */
  inAppOnly: boolean;
  /** How it looks: a stop loss (money at risk, red), a profit target (green), anything else. */
  tone: 'stop' | 'target' | 'notice';
}

/** A toast for one `alert` push. */
export function toastContent(execution: AlertExecution): ToastContent {
  const message = execution.message?.trim();
  const sync = execution.execution_type === BROKER_SYNC_EXECUTION;
  return {
    id: execution.id,
    title: alertHeading(execution),
    body:
      message && message.length > 0
        ? message
        : `Trigger ${formatInr(execution.trigger_price)}, hit at ${formatInr(execution.execution_price)}`,
    ltp: sync
      ? null
      : execution.execution_type === CORPORATE_ACTION_EXECUTION
        ? `${formatInr(execution.trigger_price)} → ${formatInr(execution.execution_price)}`
        : `LTP ${formatInr(execution.execution_price)}`,
    // A sync is told in the app only by design: "not emailed" would read as a failure.
    inAppOnly: !sync && (execution.over_quota || execution.status === 'IN_APP_ONLY'),
    tone:
      execution.execution_type !== 'ALERT' ? 'notice' : (kindOf(execution.trigger_type)?.tone ?? 'notice'),
  };
}

/** The bell's accessible name: 'Alerts, 2 unread' or 'Alerts, none unread'. */
export function bellLabel(unread: number): string {
  return `Alerts, ${unread === 0 ? 'none' : unread} unread`;
}

/** The badge on the bell: nothing at 0, '99+' beyond 99. */
export function bellBadge(unread: number): string | null {
  if (unread <= 0) return null;
  return unread > 99 ? '99+' : String(unread);
}

/** '22/11/2026, 14:05:09 IST'. */
export function feedTime(executedAt: string): string {
  return `${formatIstDateTime(executedAt)} IST`;
}

/** 'INFY rises to ₹1,600.00' / 'INFY falls to ₹1,400.00'. */
export function priceAlertSentence(alert: {
  symbol: string;
  direction: 'above' | 'below';
  price: number;
}): string {
  return `${alert.symbol} ${alert.direction === 'above' ? 'rises to' : 'falls to'} ${formatInr(alert.price)}`;
}

/** How long a toast stays (about 8 s, paused while hovered or focused). */
export const TOAST_MS = 8_000;

/** At most this many toasts at once; older ones go first. */
export const MAX_TOASTS = 4;
