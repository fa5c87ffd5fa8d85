/** Alert history is kept 2 years (spec §2 Privacy, §9): a daily job deletes older executions. */
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { queryRows, type Executor } from '../db/client.ts';

export const EXECUTION_RETENTION_YEARS = 2;
const DAY_MS = 86_400_000;
const CHUNK = 5000;

/** The instant before which executions are deleted: the same moment two years ago. */
export function retentionCutoff(now = new Date()): Date {
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - EXECUTION_RETENTION_YEARS);
  return cutoff;
}

/** Deletes executions (and their outbox rows) older than the cutoff, in chunks; returns how many. */
export async function deleteExpiredExecutions(db: Executor, now = new Date()): Promise<number> {
  const cutoff = retentionCutoff(now).toISOString();
  let total = 0;
  for (;;) {
    const rows = await queryRows<{ id: string }>(
      db,
      sql`delete from rule_executions where id in (
            select id from rule_executions where executed_at < ${cutoff}::timestamptz limit ${CHUNK})
          returning id`,
    );
    total += rows.length;
    if (rows.length < CHUNK) return total;
  }
}

export interface RetentionJob {
  start(): void;
  /** One pass now (tests, and the daily timer). */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/** Runs a minute after start, then daily. Every instance may run it: deleting is idempotent. */
export function createRetentionJob(
  db: Executor,
  log: Logger,
  opts: { firstRunMs?: number; intervalMs?: number } = {},
): RetentionJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;
  const runOnce = () =>
    (running ??= deleteExpiredExecutions(db)
      .then((n) => {
        if (n > 0) log.info({ deleted: n }, 'deleted executions older than two years');
        return n;
      })
      .finally(() => (running = undefined)));
  const tick = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      runOnce()
        .catch((err: unknown) => log.warn({ err }, 'execution retention pass failed; will retry tomorrow'))
        .finally(() => tick(opts.intervalMs ?? DAY_MS));
    }, delay);
    timer.unref();
  };
  return {
    start: () => tick(opts.firstRunMs ?? 60_000),
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch((err: unknown) => log.warn({ err }, 'execution retention pass failed'));
    },
  };
}
