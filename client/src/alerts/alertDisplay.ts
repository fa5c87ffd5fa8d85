/**
 * How alerts read behind the bell and in toasts (pure, unit-tested): titles per trigger type,
 * the bell's accessible name, feed times in IST, and the price-alert sentence.
 */
import { CORPORATE_ACTION_EXECUTION } from '@app/common/corporate-actions/describe';
import { formatIstDateTime } from '@app/common/format/ist';
import { formatInr } from '@app/common/format/money';
import type { AlertExecution } from '@app/common/realtime/events';
import {
  isProtectiveAlert,
  PRICE_GUARD_EXECUTION,
  REARM_EXECUTION,
  triggerTypeLabel,
} from '@app/common/rules/index';

const TITLES: Record<string, string> = {
  FIXED_STOP_LOSS: 'Stop loss hit',
  TRAILING_STOP_LOSS: 'Trailing stop hit',
  TAKE_PROFIT: 'Profit target reached',
  PRICE_ABOVE: 'Price alert',
  PRICE_BELOW: 'Price alert',
  // Corporate actions (execution_type CORPORATE_ACTION): levels adjusted, nothing fired.
  BONUS: 'Rules adjusted for a bonus',
  SPLIT: 'Rules adjusted for a split',
};

/**
 * 'Trailing stop hit', 'Price alert', 'Re-armed' (a rule armed again), 'Protected by Price Guard'
 * (a rule set on a holding's first price); an unknown type in words.
 */
export function alertTitle(triggerType: string, executionType?: string): string {
  if (executionType === REARM_EXECUTION) return 'Re-armed';
  if (executionType === PRICE_GUARD_EXECUTION) return 'Protected by Price Guard';
  return TITLES[triggerType] ?? triggerTypeLabel(triggerType);
}

export interface ToastContent {
  id: string;
  /** 'RELIANCE · Trailing stop hit'. */
  title: string;
  /** The crossing sentence, or the trigger and the price that crossed it. */
  body: string;
  /** 'LTP ₹1,400.00'. */
  ltp: string;
  /** Set when no email went out (over the monthly limit, or no verified address). */
  inAppOnly: boolean;
  /** How it looks: a stop loss (money at risk, red), a profit target (green), anything else. */
  tone: 'stop' | 'target' | 'notice';
}

/** A toast for one `alert` push. */
export function toastContent(execution: AlertExecution): ToastContent {
  const message = execution.message?.trim();
  return {
    id: execution.id,
    title: `${execution.symbol} · ${alertTitle(execution.trigger_type, execution.execution_type)}`,
    body:
      message && message.length > 0
        ? message
        : `Trigger ${formatInr(execution.trigger_price)}, hit at ${formatInr(execution.execution_price)}`,
    ltp:
      execution.execution_type === CORPORATE_ACTION_EXECUTION
        ? `${formatInr(execution.trigger_price)} → ${formatInr(execution.execution_price)}`
        : `LTP ${formatInr(execution.execution_price)}`,
    inAppOnly: execution.over_quota || execution.status === 'IN_APP_ONLY',
    tone:
      execution.execution_type !== 'ALERT'
        ? 'notice'
        : isProtectiveAlert(execution.trigger_type)
          ? 'stop'
          : execution.trigger_type === 'TAKE_PROFIT'
            ? 'target'
            : 'notice',
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
