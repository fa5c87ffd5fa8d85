/**
 * The daily clean-up: every table of `RETENTION_POLICIES` loses its old rows, in chunks of
 * 5,000 so no statement holds locks for long. It runs at start and then daily: the run of a day
 * is claimed with one conditional upsert of `maintenance_runs`, so of several instances exactly
 * one runs it (the others find it claimed within the last 20 hours).
 */
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { queryRows, type Executor } from '../db/client.ts';
import { createPeriodicJob, type PeriodicJob } from '../util/periodic-job.ts';
import { RETENTION_POLICIES, type RetentionPolicy } from './policies.ts';

const HOUR_MS = 3_600_000;
const CHUNK = 5000;
const JOB = 'retention';

/** Rows deleted per table in one pass (tables with none left out). */
export type RetentionPass = Record<string, number>;

async function prune(db: Executor, policy: RetentionPolicy, now: Date): Promise<number> {
  const table = sql.identifier(policy.table);
  let total = 0;
  for (;;) {
    const rows = await queryRows<{ n: number }>(
      db,
      sql`with gone as (
            delete from ${table} where ctid = any(array(
              select ctid from ${table} where ${policy.old(now)} limit ${CHUNK}))
            returning 1)
          select count(*)::int as n from gone`,
    );
    const n = rows[0]?.n ?? 0;
    total += n;
    if (n < CHUNK) return total;
  }
}

/** One pass over every table now, claimed or not (tests, and the claimed daily run). */
export async function pruneOldRows(db: Executor, now = new Date()): Promise<RetentionPass> {
  const pass: RetentionPass = {};
  for (const policy of RETENTION_POLICIES) {
    const n = await prune(db, policy, now);
    if (n > 0) pass[policy.table] = n;
  }
  return pass;
}

/** Claims the day's run: true for exactly one caller in any 20 hours, across instances. */
export async function claimDailyRun(db: Executor, now = new Date()): Promise<boolean> {
  const rows = await queryRows<{ job: string }>(
    db,
    sql`insert into maintenance_runs (job, started_at) values (${JOB}, ${now.toISOString()}::timestamptz)
        on conflict (job) do update set started_at = excluded.started_at
        where maintenance_runs.started_at <= excluded.started_at - interval '20 hours'
        returning job`,
  );
  return rows.length > 0;
}

/**
 * Looks every hour (and at start) whether the day's pass is due; the instance that claims it
 * runs it. `runOnce` resolves with the pass it ran, if any.
 */
export function createRetentionJob(
  db: Executor,
  log: Logger,
  opts: { intervalMs?: number; now?: () => Date } = {},
): PeriodicJob<RetentionPass> {
  const now = opts.now ?? (() => new Date());
  return createPeriodicJob({
    intervalMs: opts.intervalMs ?? HOUR_MS,
    log,
    failure: 'retention pass failed; the next hour retries',
    async run() {
      if (!(await claimDailyRun(db, now()))) return [];
      const pass = await pruneOldRows(db, now());
      if (Object.keys(pass).length > 0) log.info({ deleted: pass }, 'deleted rows past their retention');
      return [pass];
    },
  });
}
