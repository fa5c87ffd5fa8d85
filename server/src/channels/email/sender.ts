/**
 * The email channel as a ChannelSender (docs/notifications.md#adding-a-channel): alert emails
 * (symbol, rule, trigger price, LTP, IST time, a link to /holdings) go to the mailer as one batch
 * of one template and many recipients; a notice that is not an alert (a bonus or split, an
 * evening digest, a test) as one rendered email each. It loads what its rich templates need
 * itself; the worker records the outcomes.
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
import { CORPORATE_ACTION_EXECUTION } from '@app/common/corporate-actions/index';
import { sql } from 'drizzle-orm';
import { pgArray } from '../../db/arrays.ts';
import { queryRows } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { DIGEST_EXECUTION, type DigestContent } from '../../digest/content.ts';
import { digestsOfExecutions } from '../../digest/record.ts';
import { unsubscribeHeaders } from '../../endpoints/unsubscribe.ts';
import { countedThroughSql } from '../../executions/quota.ts';
import type { MailBatch, RecipientOutcome } from '../../mail/batch.ts';
import { MailPermanentError, MailTransientError, type Mailer } from '../../mail/mailer.ts';
import { alertEmailFields, alertEmailTemplate } from '../../mail/templates/alert.ts';
import { renderCorporateActionEmail } from '../../mail/templates/corporate-action.ts';
import { renderDigestEmail } from '../../mail/templates/digest.ts';
import { renderTestEmail } from '../../mail/templates/test-message.ts';
import type { ChannelSender, OutgoingDelivery, SendOutcome } from '../../notifications/channel.ts';
import { TEST_EXECUTION } from '@app/common/notifications/test-notice';

export type EmailSenderDeps = Pick<AppDeps, 'db' | 'mailer' | 'log' | 'config' | 'jwtSecret'>;

/** Executions emailed one rendered message each instead of the alert template. */
const NOTICE_EXECUTIONS = new Set([CORPORATE_ACTION_EXECUTION, DIGEST_EXECUTION, TEST_EXECUTION]);

interface EmailContext {
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
  rule_trigger_type: TriggerType | null;
  rule_trigger_value: string | null;
  rule_value_type: ValueType | null;
  alert_direction: 'above' | 'below' | null;
  alert_price: string | null;
  /** The month's counted alerts up to this one (executions/quota.ts). */
  counted_through: number;
  /** The other executions of its notice (issue #28): rules on the stock that fired with it. */
  others_in_notice: number;
}

/** What the emails need, per execution id. */
async function loadContexts(
  deps: EmailSenderDeps,
  executionIds: string[],
): Promise<Map<string, EmailContext>> {
  const rows = await queryRows<EmailContext>(
    deps.db,
    sql`select e.id as execution_id, u.name as user_name, u.subscription_tier, e.symbol, e.exchange, e.trigger_type,
               e.execution_type, e.message, e.trigger_price, e.execution_price, e.executed_at,
               r.trigger_type as rule_trigger_type, r.trigger_value as rule_trigger_value,
               r.value_type as rule_value_type, a.direction as alert_direction, a.price as alert_price,
               ${countedThroughSql('e')} as counted_through,
               (select count(*)::int from rule_executions m
                 where m.notice_id = e.id and m.notice_id <> m.id) as others_in_notice
        from rule_executions e
        join users u on u.id = e.user_id
        left join position_rules r on r.id = e.rule_id
        left join price_alerts a on a.id = e.price_alert_id
        where e.id = any(${pgArray(executionIds)}::uuid[])`,
  );
  return new Map(rows.map((row) => [row.execution_id, row]));
}

/** 'Trailing stop loss 7%' / 'Price above ₹1,600.00', or the execution's type once the rule is gone. */
function ruleLabel(c: EmailContext): string {
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

function alertFields(deps: EmailSenderDeps, c: EmailContext) {
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
    // The month's last counted alert says so (a stop loss past it is emailed all the same).
    overQuota: Number.isFinite(monthlyEmails) && Number(c.counted_through) === monthlyEmails,
    notice: Number(c.others_in_notice) > 0 ? c.message : null,
    othersInNotice: Number(c.others_in_notice),
  });
}

/** A notice that is not an alert (a bonus or split, an evening digest, a test) as a batch of one. */
function noticeBatch(
  deps: EmailSenderDeps,
  d: OutgoingDelivery,
  c: EmailContext,
  digest: DigestContent | undefined,
): MailBatch {
  const appUrl = deps.config.appUrl;
  const email =
    c.execution_type === TEST_EXECUTION
      ? renderTestEmail({ userName: c.user_name, appUrl })
      : digest
        ? renderDigestEmail({ userName: c.user_name, content: digest, appUrl })
        : renderCorporateActionEmail({
            userName: c.user_name,
            symbol: c.symbol,
            exchange: c.exchange,
            kind: c.trigger_type,
            message: c.message ?? '',
            appUrl,
          });
  return {
    template: { text: email.text, html: email.html },
    recipients: [
      {
        to: d.endpoint.value,
        subject: email.subject,
        substitutions: {},
        headers: unsubscribeHeaders(deps, d.endpoint.id),
      },
    ],
  };
}

/** Hands a batch to the mailer; a mailer that throws (it should not) fails everyone transiently. */
async function sendBatch(deps: EmailSenderDeps, batch: MailBatch): Promise<RecipientOutcome[]> {
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

/** A mailer's outcome as the worker records it. */
function outcomeOf(result: RecipientOutcome | undefined): SendOutcome {
  if (!result) return { kind: 'retry', reason: 'no outcome from the mailer' };
  if (result.kind === 'sent') return { kind: 'sent' };
  if (result.error instanceof MailPermanentError) return { kind: 'failed', reason: result.error.reason };
  return { kind: 'retry', reason: result.error.reason, afterMs: result.error.retryAfterMs };
}

/** The email sender over `deps.mailer`. */
export function createEmailSender(deps: EmailSenderDeps & { mailer: Mailer }): ChannelSender {
  return {
    channel: 'email',
    maxBatch: deps.mailer.maxBatch,
    async send(deliveries) {
      const contexts = await loadContexts(deps, [...new Set(deliveries.map((d) => d.executionId))]);
      const isNotice = (d: OutgoingDelivery) =>
        NOTICE_EXECUTIONS.has(contexts.get(d.executionId)?.execution_type ?? '');
      const found = deliveries.filter((d) => contexts.has(d.executionId));
      const alerts = found.filter((d) => !isNotice(d));
      const notices = found.filter(isNotice);
      const digests = await digestsOfExecutions(
        deps.db,
        notices.map((d) => d.executionId),
      );
      const sentAlerts =
        alerts.length === 0
          ? []
          : await sendBatch(deps, {
              template: alertEmailTemplate(deps.config.appUrl),
              recipients: alerts.map((d) => ({
                to: d.endpoint.value,
                ...alertFields(deps, contexts.get(d.executionId)!),
                headers: unsubscribeHeaders(deps, d.endpoint.id),
              })),
            });
      // A notice is rare and worded its own way: one rendered email each.
      const sentNotices = (
        await Promise.all(
          notices.map((d) =>
            sendBatch(deps, noticeBatch(deps, d, contexts.get(d.executionId)!, digests.get(d.executionId))),
          ),
        )
      ).flat();
      const byId = new Map<string, SendOutcome>();
      alerts.forEach((d, i) => byId.set(d.id, outcomeOf(sentAlerts[i])));
      notices.forEach((d, i) => byId.set(d.id, outcomeOf(sentNotices[i])));
      return deliveries.map(
        (d) => byId.get(d.id) ?? { kind: 'failed', reason: 'The notice was deleted before it was sent' },
      );
    },
  };
}
