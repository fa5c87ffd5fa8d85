/**
 * WhatsApp's receipts on the outbox (docs/notifications.md#whatsapp): the statuses of Meta's
 * webhook (channels/whatsapp/webhook.ts parses them) recorded on their deliveries. Statuses come
 * at least once and in any order: a delivery only moves up READ > DELIVERED > FAILED > ACCEPTED, so
 * duplicates, late `delivered`s and replays change nothing. A delivery is found by its wamid, or,
 * before the worker has recorded that, by `biz_opaque_callback_data` (the delivery id the sender
 * put there). `failed` records Meta's code and title; 131026 and 131049 also turn the number off
 * with a reason. The executions follow (`settleExecutions`), and the tabs hear of it; a fallback
 * email the failure calls for is handed to the delivery worker after the commit.
 */
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../deps.ts';
import { pgArray } from '../db/arrays.ts';
import { queryRows } from '../db/client.ts';
import { GONE_CODES } from '../channels/whatsapp/outcomes.ts';
import type { MessageStatus } from '../channels/whatsapp/webhook.ts';
import { insertFallbackEmails } from './fallback.ts';
import { settleExecutions } from './outbox.ts';

const rankOf = (column: ReturnType<typeof sql.raw>) =>
  sql`(case ${column} when 'READ' then 4 when 'DELIVERED' then 3 when 'FAILED' then 2 when 'ACCEPTED' then 1 when 'SENT' then 1 else 0 end)`;

/** What recording a webhook's statuses changed. */
export interface RecordedStatuses {
  /** Deliveries whose status moved. */
  updated: number;
  /** Numbers turned off (131026, 131049). */
  deactivated: number;
}

/** What records the statuses: the app's, and the delivery worker to hand fallback emails to. */
export type ReceiptDeps = Pick<AppDeps, 'db' | 'events' | 'log'> & {
  deliveries: { dispatch(deliveryIds: string[]): void };
};

/**
 * Records the statuses on their deliveries in one transaction: each moves only up; `failed` with
 * a gone code turns its endpoint off; the executions are settled and the change published.
 */
export async function recordStatuses(
  deps: ReceiptDeps,
  statuses: readonly MessageStatus[],
): Promise<RecordedStatuses> {
  if (statuses.length === 0) return { updated: 0, deactivated: 0 };
  const { moved, settled, endpoints, fallbacks } = await deps.db.transaction(async (tx) => {
    const moved = await queryRows<{
      execution_id: string;
      endpoint_id: string | null;
      user_id: string;
      code: number | null;
    }>(
      tx,
      sql`with s as (
            select * from unnest(${pgArray(statuses.map((s) => s.wamid))}::text[],
                                 ${pgArray(statuses.map((s) => s.deliveryId))}::uuid[],
                                 ${pgArray(statuses.map((s) => s.status))}::text[],
                                 ${pgArray(statuses.map((s) => s.at.toISOString()))}::timestamptz[],
                                 ${pgArray(statuses.map((s) => s.code))}::int[],
                                 ${pgArray(statuses.map((s) => s.error))}::text[])
              as s(wamid, delivery_id, status, at, code, error)),
          target as (
            select d.id, s.* from s join alert_deliveries d on d.provider_message_id = s.wamid
            union
            select d.id, s.* from s join alert_deliveries d
              on d.id = s.delivery_id and d.provider_message_id is null and d.channel = 'whatsapp')
          update alert_deliveries d
             set status = t.status, status_at = t.at, provider_message_id = t.wamid, locked_until = null,
                 last_error = case when t.status = 'FAILED' then t.error else d.last_error end
            from target t
           where d.id = t.id and ${rankOf(sql.raw('t.status'))} > ${rankOf(sql.raw('d.status'))}
          returning d.execution_id, d.endpoint_id,
                    (select user_id from rule_executions e where e.id = d.execution_id) as user_id, t.code`,
    );
    const gone = moved.filter((m) => m.endpoint_id && m.code !== null && GONE_CODES.has(Number(m.code)));
    const endpoints = gone.length
      ? await queryRows<{ user_id: string }>(
          tx,
          sql`update notification_endpoints e set is_active = false,
                     inactive_reason = 'WhatsApp could not deliver to this number (' || r.code || '). Check it is on WhatsApp, then add it again.'
                from unnest(${pgArray(gone.map((g) => g.endpoint_id))}::uuid[], ${pgArray(gone.map((g) => Number(g.code)))}::int[]) as r(id, code)
               where e.id = r.id and e.is_active
              returning e.user_id`,
        )
      : [];
    const executionIds = [...new Set(moved.map((m) => m.execution_id))];
    // A message WhatsApp accepted and then failed may leave an alert with no channel that got
    // through: its fallback email goes as for a failure at send time, dispatched after the commit
    // (with BullMQ nothing polls: undispatched, it would wait for the sweep of lost jobs).
    const fallbacks = await insertFallbackEmails(tx, executionIds);
    const settled = await settleExecutions(tx, executionIds);
    return { moved, settled, endpoints, fallbacks };
  });
  if (fallbacks.length > 0) deps.deliveries.dispatch(fallbacks);
  const changes = [
    ...settled.map((s) => ({
      type: 'executions' as const,
      userId: s.userId,
      settled: { id: s.executionId, status: s.status },
    })),
    // A receipt that leaves the execution's status as it was (delivered, read) is still the user's
    // `executions` change, without `settled`: for History's per-delivery receipts to follow.
    ...[...new Set(moved.map((m) => m.user_id))]
      .filter((userId) => !settled.some((s) => s.userId === userId))
      .map((userId) => ({ type: 'executions' as const, userId })),
    ...[...new Set(endpoints.map((e) => e.user_id))].map((userId) => ({
      type: 'endpoints' as const,
      userId,
    })),
  ];
  if (changes.length > 0) void deps.events.publish(changes);
  if (endpoints.length > 0)
    deps.log.warn({ count: endpoints.length }, 'WhatsApp numbers turned off: undeliverable');
  return { updated: moved.length, deactivated: endpoints.length };
}
