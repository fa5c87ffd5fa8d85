/**
 * Which bonuses and splits are due, and what happens when one fails to apply: its transaction
 * rolled back whole, it is logged once with the action, counted (`failed_attempts`, the
 * `guard_corporate_actions_failing` gauge) and tried again alone after a back-off, while the
 * actions after it go on. A fault in one action's data (a row that cannot be updated) never
 * holds up the others.
 */
import { istDateOf } from '@app/common/market/calendar';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { queryRows, type Executor } from '../db/client.ts';
import { corporateActions } from '../db/schema.ts';

/** The first retry waits a minute (the job's interval); each failure doubles it, up to an hour. */
const FIRST_RETRY_MS = 60_000;
const MAX_RETRY_MS = 3_600_000;

/** How long an action waits after its `attempts`-th failure. */
function retryDelayMs(attempts: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (attempts - 1));
}

export interface DueAction {
  id: string;
  exchange: string;
  symbol: string;
  kind: string;
  ex_date: string;
  failed_attempts: number;
}

/**
 * Bonuses and splits whose ex-date (IST) has come by `now` and that nobody has applied yet,
 * leaving out those waiting for their retry.
 */
export function dueActions(db: Executor, now: Date): Promise<DueAction[]> {
  return queryRows<DueAction>(
    db,
    sql`select id, exchange, symbol, kind, ex_date::text as ex_date, failed_attempts from corporate_actions
        where applied_at is null and ratio is not null and ex_date <= ${istDateOf(now)}::date
          and (retry_at is null or retry_at <= ${now.toISOString()}::timestamptz)
        order by ex_date, id`,
  );
}

/** The innermost error's message (the database's own words, not the driver's wrapping). */
function rootMessage(err: unknown): string {
  let e = err;
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  return e instanceof Error ? e.message : String(e);
}

/** Counts the failure, sets the retry and logs it, once; a failure to record it is logged too. */
export async function recordFailure(
  deps: { db: Executor; log: Logger },
  action: DueAction,
  err: unknown,
  now: Date,
): Promise<void> {
  const attempts = action.failed_attempts + 1;
  const retryAt = new Date(now.getTime() + retryDelayMs(attempts));
  const failure = rootMessage(err);
  const fields = {
    err,
    failure,
    actionId: action.id,
    symbol: action.symbol,
    exchange: action.exchange,
    exDate: action.ex_date,
    kind: action.kind,
    attempts,
    retryAt: retryAt.toISOString(),
  };
  try {
    await deps.db
      .update(corporateActions)
      .set({ failedAttempts: attempts, retryAt, lastFailure: failure })
      .where(and(eq(corporateActions.id, action.id), isNull(corporateActions.appliedAt)));
  } catch (recordErr) {
    deps.log.error({ ...fields, recordErr }, 'corporate action not applied, nor its failure recorded');
    return;
  }
  deps.log.error(fields, 'corporate action not applied; tried again alone at retryAt');
}

/** Bonuses and splits due but not applied because their last attempt failed, across instances. */
export async function countFailingActions(db: Executor): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from corporate_actions
        where applied_at is null and ratio is not null and failed_attempts > 0`,
  );
  return Number(row?.n ?? 0);
}
