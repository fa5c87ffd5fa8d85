/**
 * The alert outbox in Postgres (`alert_deliveries`). A row is claimed before it is sent
 * (status SENDING, locked_until), so a row handed to two workers, or a queue job delivered
 * twice, is sent once. A claim whose worker died expires and the row is claimed again; a row a
 * provider took (SENT, ACCEPTED and after) is never claimed again.
 */
import { sql, type SQL } from 'drizzle-orm';
import { ONE_MESSAGE_PER_ENDPOINT, PACED_CHANNELS, type Channel } from '@app/common/notifications/channels';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Executor } from '../db/client.ts';

export interface ClaimedDelivery {
  id: string;
  executionId: string;
  /** The endpoint it goes to (null once the endpoint was deleted). */
  endpointId: string | null;
  /** Which sender takes it: the endpoint's type when the row was written. */
  channel: Channel;
  destination: string;
  /** The endpoint's label and channel data (a push subscription's keys); null once it is deleted. */
  label: string | null;
  meta: Record<string, unknown> | null;
  /** Attempts including this one. */
  attempts: number;
}

interface Row {
  id: string;
  execution_id: string;
  endpoint_id: string | null;
  channel: Channel;
  destination: string;
  label: string | null;
  meta: Record<string, unknown> | null;
  attempts: number;
}

const toClaimed = (r: Row): ClaimedDelivery => ({
  id: r.id,
  executionId: r.execution_id,
  endpointId: r.endpoint_id,
  channel: r.channel,
  destination: r.destination,
  label: r.label,
  meta: r.meta,
  attempts: Number(r.attempts),
});

/** Statuses of a delivery the provider took: never claimed again, and its execution may settle SUCCESS. */
export const TAKEN_STATUSES = ['SENT', 'ACCEPTED', 'DELIVERED', 'READ'] as const;

/** Claims the rows `which` selects (locked, skipping others' locks) and answers them with their endpoints'. */
function claimSql(which: SQL, lockMs: number): SQL {
  return sql`with claimed as (
      update alert_deliveries set status = 'SENDING', attempts = attempts + 1,
        locked_until = now() + ${lockMs} * interval '1 millisecond'
      where id in (${which})
      returning id, execution_id, endpoint_id, channel, destination, attempts)
    select c.id, c.execution_id, c.endpoint_id, c.channel, c.destination, c.attempts, e.label, e.meta
    from claimed c left join notification_endpoints e on e.id = c.endpoint_id`;
}

/** Due: pending and its time has come, or stuck in SENDING past its lock. */
const DUE = sql`((status = 'PENDING' and next_attempt_at <= now()) or (status = 'SENDING' and locked_until < now()))`;

/**
 * Which rows a worker takes: `fast` every channel but the paced ones, `paced` only those
 * (`PACED_CHANNELS`: Telegram's 30 messages a second), so a paced sender never holds the batches
 * of the others.
 */
export type DeliveryLane = 'fast' | 'paced';

function inLane(lane: DeliveryLane): SQL {
  const paced = sql`${pgArray(PACED_CHANNELS)}::text[]`;
  return lane === 'paced' ? sql`channel = any(${paced})` : sql`channel <> all(${paced})`;
}

/**
 * `picked` (a locking select of ids) with the other due rows of the same endpoints on channels that
 * send an endpoint's notices as one message (`ONE_MESSAGE_PER_ENDPOINT`): a chat's notices of one
 * crash are claimed, and sent, together, whatever batch boundary fell between them.
 */
function withWholeEndpoints(picked: SQL): SQL {
  const combined = sql`${pgArray(ONE_MESSAGE_PER_ENDPOINT)}::text[]`;
  return sql`with picked as (${picked}),
    together as (
      select d.id from alert_deliveries d
      where ${DUE} and d.channel = any(${combined})
        and d.endpoint_id in (select p.endpoint_id from picked p where p.channel = any(${combined}))
        and d.id not in (select p.id from picked p)
      for update skip locked)
    select id from picked union all select id from together`;
}

/**
 * Claims up to `limit` due rows of a lane (SKIP LOCKED: workers never wait for, or take, each
 * other's), a chat's whole.
 */
export async function claimDueDeliveries(
  db: Executor,
  { limit, lockMs, lane }: { limit: number; lockMs: number; lane: DeliveryLane },
): Promise<ClaimedDelivery[]> {
  const rows = await queryRows<Row>(
    db,
    claimSql(
      withWholeEndpoints(
        sql`select id, channel, endpoint_id from alert_deliveries where ${DUE} and ${inLane(lane)}
            order by next_attempt_at limit ${limit} for update skip locked`,
      ),
      lockMs,
    ),
  );
  return rows.map(toClaimed);
}

/**
 * Claims the listed rows that are due (a queue job's: the fast lane's), a chat's whole; not those
 * sent, failed, not yet due or claimed, nor a paced channel's (its own lane polls them).
 */
export async function claimDeliveries(
  db: Executor,
  { ids, lockMs }: { ids: readonly string[]; lockMs: number },
): Promise<ClaimedDelivery[]> {
  if (ids.length === 0) return [];
  const rows = await queryRows<Row>(
    db,
    claimSql(
      withWholeEndpoints(
        sql`select id, channel, endpoint_id from alert_deliveries
            where id = any(${pgArray(ids)}::uuid[]) and ${DUE} and ${inLane('fast')}
            for update skip locked`,
      ),
      lockMs,
    ),
  );
  return rows.map(toClaimed);
}

/**
 * Ids of the fast lane's due rows older than `graceMs`: jobs the queue may have lost (the sweeper
 * re-enqueues them; the paced lane polls its own).
 */
export async function overdueDeliveryIds(
  db: Executor,
  { graceMs, limit }: { graceMs: number; limit: number },
): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from alert_deliveries
        where ((status = 'PENDING' and next_attempt_at <= now() - ${graceMs} * interval '1 millisecond')
               or (status = 'SENDING' and locked_until < now()))
          and ${inLane('fast')}
        order by next_attempt_at limit ${limit}`,
  );
  return rows.map((r) => r.id);
}

/**
 * The provider took these messages: SENT (email, Telegram) or ACCEPTED (a push service, WhatsApp).
 * A row a receipt already moved on (WhatsApp's webhook can beat the send's own answer, finding the
 * row by its delivery id) keeps the receipt's status.
 */
export async function markTaken(
  db: Executor,
  rows: ReadonlyArray<{ id: string; status: 'SENT' | 'ACCEPTED'; providerMessageId: string | null }>,
): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(
    sql`update alert_deliveries d set status = r.status, provider_message_id = r.provider_message_id,
          sent_at = now(), status_at = now(), locked_until = null, last_error = null
        from unnest(${pgArray(rows.map((r) => r.id))}::uuid[], ${pgArray(rows.map((r) => r.status))}::text[],
                    ${pgArray(rows.map((r) => r.providerMessageId))}::text[]) as r(id, status, provider_message_id)
        where d.id = r.id and d.status in ('PENDING', 'SENDING')`,
  );
}

/**
 * Transient failures: pending again, each due after its own `delayMs`. A throttled one (a rate
 * limit) gives its attempt back.
 */
export async function markRetry(
  db: Executor,
  rows: ReadonlyArray<{ id: string; delayMs: number; reason: string; throttled: boolean }>,
): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(
    sql`update alert_deliveries d set status = 'PENDING', locked_until = null, last_error = r.reason,
          attempts = d.attempts - case when r.throttled then 1 else 0 end,
          next_attempt_at = now() + r.delay_ms * interval '1 millisecond'
        from unnest(${pgArray(rows.map((r) => r.id))}::uuid[],
                    ${pgArray(rows.map((r) => Math.round(r.delayMs)))}::bigint[],
                    ${pgArray(rows.map((r) => r.reason))}::text[],
                    ${pgArray(rows.map((r) => r.throttled))}::boolean[]) as r(id, delay_ms, reason, throttled)
        where d.id = r.id`,
  );
}

/** Permanent failures, or last attempts: never retried. */
export async function markFailed(
  db: Executor,
  rows: ReadonlyArray<{ id: string; reason: string }>,
): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(
    sql`update alert_deliveries d set status = 'FAILED', locked_until = null, last_error = r.reason, status_at = now()
        from unnest(${pgArray(rows.map((r) => r.id))}::uuid[], ${pgArray(rows.map((r) => r.reason))}::text[])
          as r(id, reason)
        where d.id = r.id`,
  );
}

/**
 * Turns off endpoints that cannot be reached again (a blocked bot, an expired subscription),
 * with the reason; answers the users whose endpoints changed.
 */
export async function deactivateEndpoints(
  db: Executor,
  rows: ReadonlyArray<{ endpointId: string; reason: string }>,
): Promise<string[]> {
  if (rows.length === 0) return [];
  const changed = await queryRows<{ user_id: string }>(
    db,
    sql`update notification_endpoints e set is_active = false, inactive_reason = r.reason
        from unnest(${pgArray(rows.map((r) => r.endpointId))}::uuid[], ${pgArray(rows.map((r) => r.reason))}::text[])
          as r(id, reason)
        where e.id = r.id and e.is_active
        returning e.user_id`,
  );
  return [...new Set(changed.map((r) => r.user_id))];
}

/**
 * Each execution follows its deliveries: PENDING while one is still queued, then SUCCESS when a
 * provider took at least one (the alert reached the investor; History's badges say which channel
 * failed), else FAILED (with the reason). Once an execution has fallback emails
 * (deliveries/fallback.ts), it follows those alone. The other executions of its notice (issue
 * #28), which have no deliveries of their own, follow it. Returns the executions whose status
 * changed, with their users.
 */
export async function settleExecutions(
  db: Executor,
  executionIds: readonly string[],
): Promise<Array<{ executionId: string; userId: string; status: string }>> {
  if (executionIds.length === 0) return [];
  const taken = sql.raw(TAKEN_STATUSES.map((s) => `'${s}'`).join(', '));
  const rows = await queryRows<{ id: string; user_id: string; status: string }>(
    db,
    sql`with counted as (
          select d.execution_id, d.status, d.last_error from alert_deliveries d
          where d.execution_id = any(${pgArray(executionIds)}::uuid[])
            and (d.fallback_of is not null or not exists (
              select 1 from alert_deliveries f where f.execution_id = d.execution_id and f.fallback_of is not null))),
        s as (
          select execution_id,
                 case when bool_or(status in ('PENDING', 'SENDING')) then 'PENDING'
                      when bool_or(status in (${taken})) then 'SUCCESS'
                      else 'FAILED' end as status,
                 max(last_error) filter (where status = 'FAILED') as error
          from counted group by execution_id),
        settled as (
          select s.execution_id as id, s.status, s.error from s
          union all
          select m.id, s.status, s.error from s
            join rule_executions m on m.notice_id = s.execution_id and m.notice_id <> m.id)
        update rule_executions e set status = t.status, error_message = case when t.status = 'FAILED' then t.error end
        from settled t
        where e.id = t.id and e.status is distinct from t.status
        returning e.id, e.user_id, e.status`,
  );
  return rows.map((r) => ({ executionId: r.id, userId: r.user_id, status: r.status }));
}
