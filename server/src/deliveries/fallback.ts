/**
 * Nothing lost (docs/notifications.md#the-notification-layer): when every phone delivery of an
 * alert (Web Push, Telegram, WhatsApp) failed for good and the alert had no email, it is emailed
 * to each of the user's verified, active addresses, in the transaction that records the last
 * failure. The unique (execution, endpoint) makes it once, however often it is asked.
 */
import { sql } from 'drizzle-orm';
import { CHANNELS, type Channel } from '@app/common/notifications/channels';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Executor } from '../db/client.ts';
import { ALERT_EXECUTION } from '../notifications/kinds.ts';

/** The channels that reach a phone within seconds; email is their safety net. */
export const PHONE_CHANNELS: readonly Channel[] = CHANNELS.filter((c) => c !== 'email');

/**
 * Inserts the fallback emails of those of `executionIds` (alerts) whose deliveries are all phone
 * deliveries that failed; `fallback_of` names the first of them. Answers the new rows' ids.
 */
export async function insertFallbackEmails(db: Executor, executionIds: readonly string[]): Promise<string[]> {
  if (executionIds.length === 0) return [];
  const rows = await queryRows<{ id: string }>(
    db,
    sql`with lost as (
          select d.execution_id, (array_agg(d.id order by d.created_at, d.id))[1] as first_failed
          from alert_deliveries d join rule_executions x on x.id = d.execution_id
          where d.execution_id = any(${pgArray([...executionIds])}::uuid[]) and x.execution_type = ${ALERT_EXECUTION}
          group by d.execution_id
          having bool_and(d.channel = any(${pgArray(PHONE_CHANNELS)}::text[]) and d.status = 'FAILED'))
        insert into alert_deliveries (execution_id, endpoint_id, channel, destination, fallback_of)
        select l.execution_id, e.id, 'email', e.value, l.first_failed
        from lost l join rule_executions x on x.id = l.execution_id
          join notification_endpoints e on e.user_id = x.user_id and e.type = 'email' and e.is_active
            and e.verification_status = 'verified'
        on conflict (execution_id, endpoint_id) do nothing
        returning id`,
  );
  return rows.map((r) => r.id);
}
