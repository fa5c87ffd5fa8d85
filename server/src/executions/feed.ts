/**
 * /api/alerts: the bell's feed (recent executions with a read flag) beside the price alerts.
 * PUT and DELETE take either kind of id: the user's price alerts are looked up first, then the
 * user's feed items (executions); ids are UUIDs, unique across both.
 */
import type { ApiAlertsOverview, UpdateAlertInput } from '@app/common/api/price-alerts';
import type { ApiRuleExecution } from '@app/common/api/rules';
import { ALERT_FEED_LIMIT } from '@app/common/rules/fired';
import { and, count, eq, gte, isNull } from 'drizzle-orm';
import type { SessionUser } from '../auth/require-user.ts';
import type { Executor } from '../db/client.ts';
import { ruleExecutions } from '../db/schema.ts';
import { Invalid, NotFound } from '../http/errors.ts';
import { feedItems, findExecution, LEADS_ITS_NOTICE } from './history.ts';
import {
  deletePriceAlert,
  findPriceAlert,
  listPriceAlerts,
  updatePriceAlert,
  type PriceAlertDeps,
} from '../price-alerts/service.ts';

/** The feed covers the last 30 days, newest 50 items. */
export const FEED_DAYS = 30;
export const FEED_LIMIT = ALERT_FEED_LIMIT;

export const FEED_MESSAGES = {
  notFound: 'Alert not found',
  readOnly: 'This alert can only be marked read or unread: send {"read": true}.',
} as const;

const feedSince = (now: Date) => new Date(now.getTime() - FEED_DAYS * 86_400_000);

/** GET /api/alerts. */
export async function alertsOverview(
  deps: PriceAlertDeps,
  { userId, now = new Date() }: { userId: string; now?: Date },
): Promise<ApiAlertsOverview> {
  const since = feedSince(now);
  const [alerts, feed, [unread]] = await Promise.all([
    listPriceAlerts(deps, userId),
    feedItems(deps.db, { userId, since, limit: FEED_LIMIT }),
    deps.db
      .select({ n: count() })
      .from(ruleExecutions)
      .where(
        and(
          eq(ruleExecutions.userId, userId),
          gte(ruleExecutions.executedAt, since),
          isNull(ruleExecutions.readAt),
          isNull(ruleExecutions.dismissedAt),
          LEADS_ITS_NOTICE,
        ),
      ),
  ]);
  return { price_alerts: alerts, feed, unread: Number(unread?.n ?? 0) };
}

/** PUT /api/alerts/:id: a price alert is edited (and re-armed); a feed item marked read or unread. */
export async function updateAlert(
  deps: PriceAlertDeps,
  cmd: { user: SessionUser; id: string; input: UpdateAlertInput },
) {
  if (await findPriceAlert(deps.db, { userId: cmd.user.id, id: cmd.id })) {
    return { kind: 'price_alert' as const, price_alert: await updatePriceAlert(deps, cmd) };
  }
  if (!(await findExecution(deps.db, { userId: cmd.user.id, id: cmd.id })))
    throw new NotFound(FEED_MESSAGES.notFound);
  if (cmd.input.read === undefined) throw new Invalid(FEED_MESSAGES.readOnly);
  await deps.db
    .update(ruleExecutions)
    .set({ readAt: cmd.input.read ? new Date() : null })
    .where(eq(ruleExecutions.id, cmd.id));
  const item: ApiRuleExecution = (await findExecution(deps.db, { userId: cmd.user.id, id: cmd.id }))!;
  return { kind: 'feed' as const, item };
}

/** DELETE /api/alerts/:id: a price alert is deleted; a feed item is dismissed (History keeps it). */
export async function deleteAlert(deps: PriceAlertDeps, cmd: { user: SessionUser; id: string }) {
  if (await findPriceAlert(deps.db, { userId: cmd.user.id, id: cmd.id })) return deletePriceAlert(deps, cmd);
  const dismissed = await deps.db
    .update(ruleExecutions)
    .set({ dismissedAt: new Date() })
    .where(and(eq(ruleExecutions.id, cmd.id), eq(ruleExecutions.userId, cmd.user.id)))
    .returning({ id: ruleExecutions.id });
  if (dismissed.length === 0) throw new NotFound(FEED_MESSAGES.notFound);
  return { id: cmd.id, kind: 'feed' as const, deleted: true as const };
}

/** POST /api/alerts/read-all: marks every unread feed item read. */
export async function markAllRead(db: Executor, userId: string): Promise<{ updated: number }> {
  const rows = await db
    .update(ruleExecutions)
    .set({ readAt: new Date() })
    .where(and(eq(ruleExecutions.userId, userId), isNull(ruleExecutions.readAt)))
    .returning({ id: ruleExecutions.id });
  return { updated: rows.length };
}
