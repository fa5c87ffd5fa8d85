/**
 * The alert outbox in Postgres (`alert_deliveries`). A row is claimed before it is sent
 * (status SENDING, locked_until), so a row handed to two workers, or a queue job delivered
 * twice, is sent once. A claim whose worker died expires and the row is claimed again.
 */
import { sql } from 'drizzle-orm';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Executor } from '../db/client.ts';

export interface ClaimedDelivery {
  id: string;
  executionId: string;
  destination: string;
  /** Attempts including this one. */
  attempts: number;
}

interface Row {
  id: string;
  execution_id: string;
  destination: string;
  attempts: number;
}

const toClaimed = (r: Row): ClaimedDelivery => ({
  id: r.id,
  executionId: r.execution_id,
  destination: r.destination,
  attempts: Number(r.attempts),
});

/** Due: pending and its time has come, or stuck in SENDING past its lock. */
const DUE = sql`((status = 'PENDING' and next_attempt_at <= now()) or (status = 'SENDING' and locked_until < now()))`;

/** Claims up to `limit` due rows (SKIP LOCKED: workers never wait for, or take, each other's). */
export async function claimDueDeliveries(
  db: Executor,
  { limit, lockMs }: { limit: number; lockMs: number },
): Promise<ClaimedDelivery[]> {
  const rows = await queryRows<Row>(
    db,
    sql`update alert_deliveries set status = 'SENDING', attempts = attempts + 1,
          locked_until = now() + ${lockMs} * interval '1 millisecond'
        where id in (select id from alert_deliveries where ${DUE}
                     order by next_attempt_at limit ${limit} for update skip locked)
        returning id, execution_id, destination, attempts`,
  );
  return rows.map(toClaimed);
}

/** Claims the listed rows that are due (a queue job's); not those sent, failed, not yet due or claimed. */
export async function claimDeliveries(
  db: Executor,
  { ids, lockMs }: { ids: readonly string[]; lockMs: number },
): Promise<ClaimedDelivery[]> {
  if (ids.length === 0) return [];
  const rows = await queryRows<Row>(
    db,
    sql`update alert_deliveries set status = 'SENDING', attempts = attempts + 1,
          locked_until = now() + ${lockMs} * interval '1 millisecond'
        where id in (select id from alert_deliveries where id = any(${pgArray(ids)}::uuid[]) and ${DUE}
                     for update skip locked)
        returning id, execution_id, destination, attempts`,
  );
  return rows.map(toClaimed);
}

/** Ids of due rows older than `graceMs`: jobs the queue may have lost (the sweeper re-enqueues them). */
export async function overdueDeliveryIds(
  db: Executor,
  { graceMs, limit }: { graceMs: number; limit: number },
): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from alert_deliveries
        where ((status = 'PENDING' and next_attempt_at <= now() - ${graceMs} * interval '1 millisecond')
               or (status = 'SENDING' and locked_until < now()))
        order by next_attempt_at limit ${limit}`,
  );
  return rows.map((r) => r.id);
}

/** The provider accepted these messages. */
export async function markSent(db: Executor, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(
    sql`update alert_deliveries set status = 'SENT', sent_at = now(), locked_until = null, last_error = null
        where id = any(${pgArray(ids)}::uuid[])`,
  );
}

/** Transient failures: pending again, each due after its own `delayMs`. */
export async function markRetry(
  db: Executor,
  rows: ReadonlyArray<{ id: string; delayMs: number; reason: string }>,
): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(
    sql`update alert_deliveries d set status = 'PENDING', locked_until = null, last_error = r.reason,
          next_attempt_at = now() + r.delay_ms * interval '1 millisecond'
        from unnest(${pgArray(rows.map((r) => r.id))}::uuid[],
                    ${pgArray(rows.map((r) => Math.round(r.delayMs)))}::bigint[],
                    ${pgArray(rows.map((r) => r.reason))}::text[]) as r(id, delay_ms, reason)
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
    sql`update alert_deliveries d set status = 'FAILED', locked_until = null, last_error = r.reason
        from unnest(${pgArray(rows.map((r) => r.id))}::uuid[], ${pgArray(rows.map((r) => r.reason))}::text[])
          as r(id, reason)
        where d.id = r.id`,
  );
}

/**
 * Each execution follows its deliveries: FAILED (with the reason) when any failed, SUCCESS when
 * all were sent, else PENDING. Returns the executions whose status changed, with their users.
 */
export async function settleExecutions(
  db: Executor,
  executionIds: readonly string[],
): Promise<Array<{ executionId: string; userId: string; status: string }>> {
  if (executionIds.length === 0) return [];
  const rows = await queryRows<{ id: string; user_id: string; status: string }>(
    db,
    sql`update rule_executions e set status = s.status, error_message = s.error
        from (select execution_id,
                     case when bool_or(status = 'FAILED') then 'FAILED'
                          when bool_and(status = 'SENT') then 'SUCCESS'
                          else 'PENDING' end as status,
                     max(last_error) filter (where status = 'FAILED') as error
              from alert_deliveries where execution_id = any(${pgArray(executionIds)}::uuid[])
              group by execution_id) s
        where e.id = s.execution_id and e.status is distinct from s.status
        returning e.id, e.user_id, e.status`,
  );
  return rows.map((r) => ({ executionId: r.id, userId: r.user_id, status: r.status }));
}
