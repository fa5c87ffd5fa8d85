/**
 * Sends claimed deliveries as one batch: the alert emails (symbol, rule, trigger price, LTP, IST
 * time, a link to /holdings) handed to the mailer together, then every outcome recorded in a
 * few statements. A delivery is marked sent only once the provider accepted its email.
 * Transient failures (429, 5xx, timeouts) are retried with exponential back-off; permanent
 * ones, or too many attempts, fail the row.
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
import { pgArray } from '../db/arrays.ts';
import { queryRows } from '../db/client.ts';
import type { AppDeps } from '../deps.ts';
import type { MailBatch, RecipientOutcome } from '../mail/batch.ts';
import { MailPermanentError, MailTransientError } from '../mail/mailer.ts';
import { CORPORATE_ACTION_EXECUTION } from '@app/common/corporate-actions/index';
import { alertEmailFields, alertEmailTemplate } from '../mail/templates/alert.ts';
import { renderCorporateActionEmail } from '../mail/templates/corporate-action.ts';
import { renderDigestEmail } from '../mail/templates/digest.ts';
import { DIGEST_EXECUTION, type DigestContent } from '../digest/content.ts';
import { digestsOfExecutions } from '../digest/record.ts';
import { markFailed, markRetry, markSent, settleExecutions, type ClaimedDelivery } from './outbox.ts';
import { COUNTS_TOWARD_QUOTA } from '../executions/quota.ts';

/** Executions emailed one rendered message each instead of the alert template. */
const NOTICE_EXECUTIONS = new Set([CORPORATE_ACTION_EXECUTION, DIGEST_EXECUTION]);

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
  execution_id: string;
  user_name: string;
  subscription_tier: SubscriptionTier;
  symbol: string;
  exchange: string;
  trigger_type: string;
  execution_type: string;
  message: string | null;
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

/** What the emails need, per execution id (absent: the execution is gone). */
async function loadContexts(deps: DeliveryDeps, executionIds: string[]): Promise<Map<string, AlertContext>> {
  const rows = await queryRows<AlertContext>(
    deps.db,
    sql`select e.id as execution_id, u.name as user_name, u.subscription_tier, e.symbol, e.exchange, e.trigger_type,
               e.execution_type, e.message, e.trigger_price, e.execution_price, e.executed_at, e.over_quota,
               r.trigger_type as rule_trigger_type, r.trigger_value as rule_trigger_value,
               r.value_type as rule_value_type, a.direction as alert_direction, a.price as alert_price,
               (select count(*)::int from rule_executions c
                 where c.user_id = e.user_id and not c.over_quota and ${COUNTS_TOWARD_QUOTA}
                   and c.executed_at <= e.executed_at
                   and c.executed_at >= date_trunc('month', e.executed_at at time zone 'Asia/Kolkata')
                                         at time zone 'Asia/Kolkata') as counted_before
        from rule_executions e
        join users u on u.id = e.user_id
        left join position_rules r on r.id = e.rule_id
        left join price_alerts a on a.id = e.price_alert_id
        where e.id = any(${pgArray(executionIds)}::uuid[])`,
  );
  return new Map(rows.map((row) => [row.execution_id, row]));
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

function alertFields(deps: DeliveryDeps, c: AlertContext) {
  const monthlyEmails = TIER_LIMITS[c.subscription_tier].monthlyEmails;
  return alertEmailFields({
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
}

/**
 * A notice that is not an alert (a bonus or split, an evening digest) as a batch of one,
 * already rendered.
 */
function noticeBatch(
  deps: DeliveryDeps,
  job: ClaimedDelivery,
  c: AlertContext,
  digest: DigestContent | undefined,
): MailBatch {
  const email = digest
    ? renderDigestEmail({ userName: c.user_name, content: digest, appUrl: deps.config.appUrl })
    : renderCorporateActionEmail({
        userName: c.user_name,
        symbol: c.symbol,
        exchange: c.exchange,
        kind: c.trigger_type,
        message: c.message ?? '',
        appUrl: deps.config.appUrl,
      });
  return {
    template: { text: email.text, html: email.html },
    recipients: [{ to: job.destination, subject: email.subject, substitutions: {} }],
  };
}

/** Hands the batch to the mailer; a mailer that throws (it should not) fails everyone transiently. */
async function sendBatch(deps: DeliveryDeps, batch: MailBatch): Promise<RecipientOutcome[]> {
  try {
    return await deps.mailer.sendBatch(batch);
  } catch (err) {
    deps.log.error(
      { err, deliveries: batch.recipients.length },
      'alert emails failed unexpectedly; will retry',
    );
    const error = new MailTransientError('unexpected error while sending', undefined, { cause: err });
    return batch.recipients.map(() => ({ kind: 'failed', error }));
  }
}

/** A failed email's outcome: permanent, given up after the last attempt, or retried later. */
function afterFailure(
  job: ClaimedDelivery,
  error: MailTransientError | MailPermanentError,
  policy: RetryPolicy,
): DeliveryOutcome {
  if (error instanceof MailPermanentError) return { kind: 'failed', reason: error.reason };
  if (job.attempts >= policy.maxAttempts) {
    return { kind: 'failed', reason: `Gave up after ${job.attempts} attempts: ${error.reason}` };
  }
  return { kind: 'retry', delayMs: backoff(policy, job.attempts, error.retryAfterMs) };
}

/**
 * Sends claimed deliveries in one batch, records every outcome, and settles their executions'
 * statuses. Returns one outcome per delivery, in order.
 */
export async function deliverBatch(
  deps: DeliveryDeps,
  {
    jobs,
    policy,
    onOutcome,
  }: {
    jobs: readonly ClaimedDelivery[];
    policy: RetryPolicy;
    onOutcome?: ((outcome: DeliveryOutcome) => void) | undefined;
  },
): Promise<DeliveryOutcome[]> {
  if (jobs.length === 0) return [];
  const contexts = await loadContexts(deps, [...new Set(jobs.map((j) => j.executionId))]);
  const found = jobs.filter((j) => contexts.has(j.executionId));
  const isNotice = (job: ClaimedDelivery) =>
    NOTICE_EXECUTIONS.has(contexts.get(job.executionId)!.execution_type);
  const alerts = found.filter((job) => !isNotice(job));
  const notices = found.filter(isNotice);
  const digests = await digestsOfExecutions(
    deps.db,
    notices.map((job) => job.executionId),
  );
  const sentAlerts =
    alerts.length === 0
      ? []
      : await sendBatch(deps, {
          template: alertEmailTemplate(deps.config.appUrl),
          recipients: alerts.map((job) => ({
            to: job.destination,
            ...alertFields(deps, contexts.get(job.executionId)!),
          })),
        });
  // A notice is rare and worded its own way: one rendered email each.
  const sentNotices = (
    await Promise.all(
      notices.map((job) =>
        sendBatch(deps, noticeBatch(deps, job, contexts.get(job.executionId)!, digests.get(job.executionId))),
      ),
    )
  ).flat();
  const live = [...alerts, ...notices];
  const sent = [...sentAlerts, ...sentNotices];
  const byId = new Map<string, DeliveryOutcome>();
  const retries: Array<{ id: string; delayMs: number; reason: string }> = [];
  const failures: Array<{ id: string; reason: string }> = [];
  live.forEach((job, i) => {
    const result = sent[i] ?? { kind: 'failed', error: new MailTransientError('no outcome from the mailer') };
    const outcome = result.kind === 'sent' ? result : afterFailure(job, result.error, policy);
    byId.set(job.id, outcome);
    if (outcome.kind === 'retry' && result.kind === 'failed') {
      retries.push({ id: job.id, delayMs: outcome.delayMs, reason: result.error.reason });
    }
    if (outcome.kind === 'failed') failures.push({ id: job.id, reason: outcome.reason });
  });
  await markSent(
    deps.db,
    live.filter((job) => byId.get(job.id)?.kind === 'sent').map((job) => job.id),
  );
  await markFailed(deps.db, failures);
  await markRetry(deps.db, retries);
  const outcomes = jobs.map((job): DeliveryOutcome => byId.get(job.id) ?? { kind: 'gone' });
  for (const outcome of outcomes) onOutcome?.(outcome);
  const settled = await settleExecutions(deps.db, [...new Set(live.map((j) => j.executionId))]);
  // The tabs patch each execution's status (the bell, History) from one change message.
  if (settled.length > 0)
    void deps.events.publish(
      settled.map((s) => ({
        type: 'executions' as const,
        userId: s.userId,
        settled: { id: s.executionId, status: s.status },
      })),
    );
  return outcomes;
}
