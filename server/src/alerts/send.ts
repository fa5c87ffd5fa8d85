/**
 * Sends one claimed delivery: the alert email (symbol, rule, trigger price, LTP, IST time, a
 * link to /holdings), then records the outcome. Transient failures (429, 5xx, timeouts) are
 * retried with exponential back-off; permanent ones, or too many attempts, fail the row.
 */
import {
  describePriceAlert,
  describeRule,
  TIER_LIMITS,
  triggerTypeLabel,
  type SubscriptionTier,
  type TriggerType,
  type ValueType,
} from '@app/common/rules/index';
import { sql } from 'drizzle-orm';
import { queryRows } from '../db/client.ts';
import type { AppDeps } from '../deps.ts';
import { MailPermanentError, MailTransientError } from '../mail/mailer.ts';
import { renderAlertEmail } from '../mail/templates/alert.ts';
import { markFailed, markRetry, markSent, settleExecution, type ClaimedDelivery } from './deliveries.ts';

export type DeliveryDeps = Pick<AppDeps, 'db' | 'mailer' | 'log' | 'config' | 'events' | 'redis'>;

export interface RetryPolicy {
  /** Attempts in all before a transiently failing delivery is given up as FAILED. */
  maxAttempts: number;
  /** Wait before the second attempt; doubled for each one after. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 30_000, maxDelayMs: 30 * 60_000 };

export type DeliveryOutcome =
  | { kind: 'sent' }
  | { kind: 'retry'; delayMs: number }
  | { kind: 'failed'; reason: string }
  | { kind: 'gone' };

interface AlertContext {
  user_name: string;
  subscription_tier: SubscriptionTier;
  symbol: string;
  exchange: string;
  trigger_type: string;
  trigger_price: string;
  execution_price: string;
  executed_at: Date | string;
  over_quota: boolean;
  rule_trigger_type: TriggerType | null;
  rule_trigger_value: string | null;
  rule_value_type: ValueType | null;
  alert_direction: 'above' | 'below' | null;
  alert_price: string | null;
  counted_before: number;
}

async function loadContext(deps: DeliveryDeps, executionId: string): Promise<AlertContext | undefined> {
  const [row] = await queryRows<AlertContext>(
    deps.db,
    sql`select u.name as user_name, u.subscription_tier, e.symbol, e.exchange, e.trigger_type,
               e.trigger_price, e.execution_price, e.executed_at, e.over_quota,
               r.trigger_type as rule_trigger_type, r.trigger_value as rule_trigger_value,
               r.value_type as rule_value_type, a.direction as alert_direction, a.price as alert_price,
               (select count(*)::int from rule_executions c
                 where c.user_id = e.user_id and not c.over_quota and c.executed_at <= e.executed_at
                   and c.executed_at >= date_trunc('month', e.executed_at at time zone 'Asia/Kolkata')
                                         at time zone 'Asia/Kolkata') as counted_before
        from rule_executions e
        join users u on u.id = e.user_id
        left join position_rules r on r.id = e.rule_id
        left join price_alerts a on a.id = e.price_alert_id
        where e.id = ${executionId}`,
  );
  return row;
}

/** 'Trailing stop loss 7%' / 'Price above ₹1,600.00', or the execution's type once the rule is gone. */
function ruleLabel(c: AlertContext): string {
  if (c.rule_trigger_type && c.rule_trigger_value !== null && c.rule_value_type) {
    return describeRule({
      trigger_type: c.rule_trigger_type,
      trigger_value: Number(c.rule_trigger_value),
      value_type: c.rule_value_type,
    });
  }
  if (c.alert_direction && c.alert_price !== null) {
    return describePriceAlert({ direction: c.alert_direction, price: Number(c.alert_price) });
  }
  const label = triggerTypeLabel(c.trigger_type).toLowerCase();
  return label.charAt(0).toUpperCase() + label.slice(1);
}

function backoff(policy: RetryPolicy, attempts: number, retryAfterMs?: number): number {
  const doubling = policy.baseDelayMs * 2 ** Math.max(0, attempts - 1);
  return Math.min(policy.maxDelayMs, Math.max(doubling, retryAfterMs ?? 0));
}

async function send(deps: DeliveryDeps, job: ClaimedDelivery, policy: RetryPolicy): Promise<DeliveryOutcome> {
  const c = await loadContext(deps, job.executionId);
  if (!c) return { kind: 'gone' };
  const monthlyEmails = TIER_LIMITS[c.subscription_tier].monthlyEmails;
  const email = renderAlertEmail({
    userName: c.user_name,
    symbol: c.symbol,
    exchange: c.exchange,
    ruleLabel: ruleLabel(c),
    triggerPrice: Number(c.trigger_price),
    ltp: Number(c.execution_price),
    triggeredAt: new Date(c.executed_at),
    appUrl: deps.config.appUrl,
    // The month's last emailed trigger says so.
    overQuota: Number.isFinite(monthlyEmails) && Number(c.counted_before) >= monthlyEmails,
  });
  try {
    await deps.mailer.send({ to: job.destination, ...email });
    return { kind: 'sent' };
  } catch (err) {
    if (err instanceof MailPermanentError) return { kind: 'failed', reason: err.reason };
    const transient = err instanceof MailTransientError;
    if (!transient) deps.log.error({ err, delivery: job.id }, 'alert email failed unexpectedly; will retry');
    const reason = transient ? err.reason : 'unexpected error while sending';
    if (job.attempts >= policy.maxAttempts) {
      return { kind: 'failed', reason: `Gave up after ${job.attempts} attempts: ${reason}` };
    }
    const delayMs = backoff(policy, job.attempts, transient ? err.retryAfterMs : undefined);
    await markRetry(deps.db, job.id, delayMs, reason);
    return { kind: 'retry', delayMs };
  }
}

/** Sends a claimed delivery, records the outcome, and settles its execution's status. */
export async function deliver(
  deps: DeliveryDeps,
  job: ClaimedDelivery,
  policy: RetryPolicy,
  onOutcome?: (outcome: DeliveryOutcome) => void,
): Promise<DeliveryOutcome> {
  const outcome = await send(deps, job, policy);
  onOutcome?.(outcome);
  if (outcome.kind === 'sent') await markSent(deps.db, job.id);
  if (outcome.kind === 'failed') await markFailed(deps.db, job.id, outcome.reason);
  if (outcome.kind !== 'gone') {
    const settled = await settleExecution(deps.db, job.executionId);
    // The tab patches the execution's status (the bell, History); nothing else changed.
    if (settled)
      void deps.events.publish({
        type: 'executions',
        userId: settled.userId,
        settled: { id: job.executionId, status: settled.status },
      });
  }
  return outcome;
}
