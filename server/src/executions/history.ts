/** Executions (docs/exit-rules.md, Routes): the History rows, the bell's feed and the `alert` push. */
import type {
  ApiDelivery,
  ApiExecutionDeliveries,
  ApiExecutionsPage,
  ApiRuleExecution,
} from '@app/common/api/rules';
import type { AlertExecution } from '@app/common/realtime/events';
import { describePriceAlert } from '@app/common/rules/index';
import { and, count, desc, eq, gte, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { positionRules, priceAlerts, ruleExecutions } from '../db/schema.ts';
import { deliveriesOf } from './deliveries.ts';

export type ExecutionRow = typeof ruleExecutions.$inferSelect;

/**
 * The status of an execution recorded but not emailed: over the monthly quota, no verified
 * address, or a notice that is never emailed.
 */
export const IN_APP_ONLY = 'IN_APP_ONLY';

const num = (v: string | null) => (v === null ? null : Number(v));

/** The socket `alert` payload and the core of every execution shape. */
export function presentAlertExecution(row: ExecutionRow): AlertExecution {
  return {
    id: row.id,
    symbol: row.symbol,
    exchange: row.exchange,
    trigger_type: row.triggerType,
    status: row.status,
    execution_type: row.executionType,
    trigger_price: Number(row.triggerPrice),
    execution_price: Number(row.executionPrice),
    message: row.message,
    executed_at: row.executedAt.toISOString(),
    rule_id: row.ruleId,
    price_alert_id: row.priceAlertId,
    over_quota: row.overQuota,
    notice_id: row.noticeId,
  };
}

/**
 * A History row / feed item: the push payload plus errors, broker fields, rule name, read flag and
 * where it went (none in the `alert` push: its outbox rows are only queued then).
 */
export function presentExecution(
  row: ExecutionRow,
  ruleName: string | null,
  deliveries: ApiDelivery[] = [],
): ApiRuleExecution {
  // Object.assign, not a spread: V8 (Node 20) spreads this fresh 13-field object into a slow
  // dictionary, ~6 µs a row, 0.3 s of a crash day's 50,000 alerts.
  return Object.assign(presentAlertExecution(row), {
    error_message: row.errorMessage,
    account_id: row.accountId,
    quantity_executed: num(row.quantityExecuted),
    broker_order_id: row.brokerOrderId,
    rule_name: ruleName,
    read: row.readAt !== null,
    deliveries,
  });
}

/** Executions with the name of what fired: the rule's name, or the price alert in words. */
function selectExecutions(db: Executor) {
  return db
    .select({
      e: ruleExecutions,
      ruleName: positionRules.ruleName,
      alertDirection: priceAlerts.direction,
      alertPrice: priceAlerts.price,
    })
    .from(ruleExecutions)
    .leftJoin(positionRules, eq(positionRules.id, ruleExecutions.ruleId))
    .leftJoin(priceAlerts, eq(priceAlerts.id, ruleExecutions.priceAlertId));
}

type Joined = Awaited<ReturnType<ReturnType<typeof selectExecutions>['execute']>>[number];

function nameOf(r: Joined): string | null {
  const alertName =
    r.alertDirection && r.alertPrice !== null
      ? describePriceAlert({ direction: r.alertDirection, price: Number(r.alertPrice) })
      : null;
  return r.ruleName ?? alertName;
}

/** The rows presented, each with its deliveries: one more query for the whole list. */
async function present(db: Executor, userId: string, rows: Joined[]): Promise<ApiRuleExecution[]> {
  const deliveries = await deliveriesOf(
    db,
    userId,
    rows.map((r) => r.e),
  );
  return rows.map((r) => presentExecution(r.e, nameOf(r), deliveries.get(r.e.id)));
}

export interface ExecutionWindow {
  start: Date;
  end: Date;
  limit: number;
  offset: number;
}

function windowOf(userId: string, start: Date, end: Date): SQL {
  return and(
    eq(ruleExecutions.userId, userId),
    gte(ruleExecutions.executedAt, start),
    lte(ruleExecutions.executedAt, end),
  )!;
}

/** GET /api/rule-executions: newest first, with the total in the window for paging. */
export async function listExecutions(
  db: Executor,
  { userId, ...w }: { userId: string } & ExecutionWindow,
): Promise<ApiExecutionsPage> {
  const where = windowOf(userId, w.start, w.end);
  const rows = await selectExecutions(db)
    .where(where)
    .orderBy(desc(ruleExecutions.executedAt), desc(ruleExecutions.id))
    .limit(w.limit)
    .offset(w.offset);
  const [[total], executions] = await Promise.all([
    db.select({ n: count() }).from(ruleExecutions).where(where),
    present(db, userId, rows),
  ]);
  return { executions, total: Number(total?.n ?? 0) };
}

/** GET /api/rule-executions/deliveries?ids=: where each of the user's executions `ids` went (others' left out). */
export async function deliveriesByExecution(
  db: Executor,
  { userId, ids }: { userId: string; ids: string[] },
): Promise<ApiExecutionDeliveries> {
  const own = await db
    .select({ id: ruleExecutions.id, noticeId: ruleExecutions.noticeId })
    .from(ruleExecutions)
    .where(and(eq(ruleExecutions.userId, userId), inArray(ruleExecutions.id, ids)));
  return { deliveries: Object.fromEntries(await deliveriesOf(db, userId, own)) };
}

/** GET /api/alerts/history: the last `days` days, newest first (at most 1,000 rows). */
export async function executionHistory(
  db: Executor,
  { userId, days, now = new Date() }: { userId: string; days: number; now?: Date },
) {
  const rows = await selectExecutions(db)
    .where(windowOf(userId, new Date(now.getTime() - days * 86_400_000), now))
    .orderBy(desc(ruleExecutions.executedAt), desc(ruleExecutions.id))
    .limit(1000);
  return present(db, userId, rows);
}

/**
 * The executions that tell their notice (a lead, one alone, or a row older than notices): the bell
 * lists one item per notice; History lists every execution. (The quota's SQL says the same of
 * unqualified columns: COUNTS_TOWARD_QUOTA.)
 */
export const LEADS_ITS_NOTICE = sql`(${ruleExecutions.noticeId} is null or ${ruleExecutions.noticeId} = ${ruleExecutions.id})`;

/** The bell's feed: one item per notice since `since`, not dismissed, newest first. */
export async function feedItems(
  db: Executor,
  { userId, since, limit }: { userId: string; since: Date; limit: number },
) {
  const rows = await selectExecutions(db)
    .where(
      and(
        eq(ruleExecutions.userId, userId),
        gte(ruleExecutions.executedAt, since),
        isNull(ruleExecutions.dismissedAt),
        LEADS_ITS_NOTICE,
      ),
    )
    .orderBy(desc(ruleExecutions.executedAt), desc(ruleExecutions.id))
    .limit(limit);
  return present(db, userId, rows);
}

/** One of the user's executions with its rule name, or undefined. */
export async function findExecution(
  db: Executor,
  { userId, id }: { userId: string; id: string },
): Promise<ApiRuleExecution | undefined> {
  const [row] = await selectExecutions(db).where(
    and(eq(ruleExecutions.id, id), eq(ruleExecutions.userId, userId)),
  );
  return row ? (await present(db, userId, [row]))[0] : undefined;
}
