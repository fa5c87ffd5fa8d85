/**
 * Applies due bonuses and splits, each exactly once across instances and restarts: one
 * transaction claims the action (`UPDATE … SET applied_at WHERE applied_at IS NULL RETURNING`;
 * a second instance waits on the row lock, then finds it applied and does nothing), adjusts
 * the levels and manual holdings, records the adjustments and writes each user's History row
 * and outbox rows. After the commit the outbox is dispatched and one change-feed message tells
 * every instance: the `alert` push, the users' rules reloaded, their holdings refreshed.
 */
import { sql } from 'drizzle-orm';
import { presentExecution } from '../executions/history.ts';
import { queryRows, type Executor } from '../db/client.ts';
import type { AppDeps } from '../deps.ts';
import { corporateActions } from '../db/schema.ts';
import type { Change } from '../events/changes.ts';
import { adjustForAction } from './adjust.ts';
import { recordNotices, type Notice } from './notify.ts';
import type { CorporateActionRow } from './store.ts';

export type ApplyDeps = Pick<AppDeps, 'db' | 'events' | 'redis' | 'log'> & {
  /** Hands committed outbox rows to the delivery worker. */
  deliveries: { dispatch(deliveryIds: string[]): void };
};

export interface AppliedAction {
  action: CorporateActionRow;
  rules: number;
  alerts: number;
  holdings: number;
  notices: Notice[];
}

/** Bonuses and splits whose ex-date (IST) is `today` or past and that nobody has applied yet. */
export async function dueActionIds(db: Executor, today: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from corporate_actions
        where applied_at is null and ratio is not null and ex_date <= ${today}::date
        order by ex_date, id`,
  );
  return rows.map((r) => r.id);
}

/** Claims and applies one action; null when another instance (or an earlier run) applied it. */
export async function applyCorporateAction(deps: ApplyDeps, id: string): Promise<AppliedAction | null> {
  const applied = await deps.db.transaction(async (tx) => {
    const [action] = await tx
      .update(corporateActions)
      .set({ appliedAt: sql`now()` })
      .where(
        sql`${corporateActions.id} = ${id} and ${corporateActions.appliedAt} is null and ${corporateActions.ratio} is not null`,
      )
      .returning();
    if (!action) return null;
    const adjusted = await adjustForAction(tx, action);
    const notices = await recordNotices(tx, { action, adjustments: adjusted });
    await tx
      .update(corporateActions)
      .set({
        adjustedRules: adjusted.rules.length,
        adjustedAlerts: adjusted.alerts.length,
        adjustedHoldings: adjusted.manual.length,
        notifiedUsers: notices.length,
      })
      .where(sql`${corporateActions.id} = ${id}`);
    return {
      action,
      rules: adjusted.rules.length,
      alerts: adjusted.alerts.length,
      holdings: adjusted.manual.length,
      notices,
      holdingUsers: [...new Set(adjusted.manual.map((h) => h.user_id))],
    };
  });
  if (!applied) return null;
  const { holdingUsers, ...result } = applied;
  const changes: Change[] = [];
  for (const n of result.notices) {
    if (n.deliveryIds.length > 0) deps.deliveries.dispatch(n.deliveryIds);
    changes.push({ type: 'executions', userId: n.userId, fired: presentExecution(n.execution, null) });
    changes.push({ type: 'rules', userId: n.userId });
  }
  for (const userId of holdingUsers) changes.push({ type: 'holdings', userId });
  await deps.events.publish(changes);
  deps.log.info(
    {
      symbol: result.action.symbol,
      exDate: result.action.exDate,
      kind: result.action.kind,
      rules: result.rules,
      alerts: result.alerts,
      holdings: result.holdings,
      users: result.notices.length,
    },
    'corporate action applied',
  );
  return result;
}
