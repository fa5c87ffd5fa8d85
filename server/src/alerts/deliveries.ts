/**
 * The alert outbox in Postgres (`alert_deliveries`). A row is claimed before it is sent
 * (status SENDING, locked_until), so a row handed to two workers, or a queue job delivered
 * twice, is sent once. A claim whose worker died expires and the row is claimed again.
 */
import { sql } from 'drizzle-orm';
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
  limit: number,
  lockMs: number,
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

/** Claims one row by id if it is due (a queue job); null when sent, failed, or not yet due. */
export async function claimDelivery(
  db: Executor,
  id: string,
  lockMs: number,
): Promise<ClaimedDelivery | null> {
  const [row] = await queryRows<Row>(
    db,
    sql`update alert_deliveries set status = 'SENDING', attempts = attempts + 1,
          locked_until = now() + ${lockMs} * interval '1 millisecond'
        where id = ${id} and ${DUE}
        returning id, execution_id, destination, attempts`,
  );
  return row ? toClaimed(row) : null;
}

/** Ids of due rows older than `graceMs`: jobs the queue may have lost (the sweeper re-enqueues them). */
export async function overdueDeliveryIds(db: Executor, graceMs: number, limit: number): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from alert_deliveries
        where ((status = 'PENDING' and next_attempt_at <= now() - ${graceMs} * interval '1 millisecond')
               or (status = 'SENDING' and locked_until < now()))
        order by next_attempt_at limit ${limit}`,
  );
  return rows.map((r) => r.id);
}

/** The provider accepted the message. */
export async function markSent(db: Executor, id: string): Promise<void> {
  await db.execute(
    sql`update alert_deliveries set status = 'SENT', sent_at = now(), locked_until = null, last_error = null
        where id = ${id}`,
  );
}

/** A transient failure: pending again, due after `delayMs`. */
export async function markRetry(db: Executor, id: string, delayMs: number, reason: string): Promise<void> {
  await db.execute(
    sql`update alert_deliveries set status = 'PENDING', locked_until = null, last_error = ${reason},
          next_attempt_at = now() + ${Math.round(delayMs)} * interval '1 millisecond'
        where id = ${id}`,
  );
}

/** A permanent failure, or the last attempt: never retried. */
export async function markFailed(db: Executor, id: string, reason: string): Promise<void> {
  await db.execute(
    sql`update alert_deliveries set status = 'FAILED', locked_until = null, last_error = ${reason} where id = ${id}`,
  );
}

/**
 * The execution follows its deliveries: FAILED (with the reason) when any failed, SUCCESS when
 * all were sent, else PENDING. Returns the user and new status when it changed.
 */
export async function settleExecution(
  db: Executor,
  executionId: string,
): Promise<{ userId: string; status: string } | null> {
  const [row] = await queryRows<{ user_id: string; status: string }>(
    db,
    sql`update rule_executions e set status = s.status, error_message = s.error
        from (select case when bool_or(status = 'FAILED') then 'FAILED'
                          when bool_and(status = 'SENT') then 'SUCCESS'
                          else 'PENDING' end as status,
                     max(last_error) filter (where status = 'FAILED') as error
              from alert_deliveries where execution_id = ${executionId} having count(*) > 0) s
        where e.id = ${executionId} and s.status is not null and e.status is distinct from s.status
        returning e.user_id, e.status`,
  );
  return row ? { userId: row.user_id, status: row.status } : null;
}
