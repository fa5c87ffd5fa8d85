/**
 * Applies due bonuses and splits, each exactly once across instances and restarts: one
 * transaction claims the action (`UPDATE … SET applied_at WHERE applied_at IS NULL RETURNING`;
 * a second instance waits on the row lock, then finds it applied and does nothing), adjusts
 * the levels and manual holdings on every listing of the company (the NSE file's bonus is the
 * BSE listing's too), records the adjustments and writes each user's History rows and outbox
 * rows. After the commit the outbox is dispatched and one change-feed message tells
 * every instance: the `alert` push, the users' rules reloaded, their holdings refreshed.
 */
import { sql } from 'drizzle-orm';
import { presentExecution } from '../executions/history.ts';
import { queryRows, type Tx } from '../db/client.ts';
import type { AppDeps } from '../deps.ts';
import { configuredChannels } from '../notifications/senders.ts';
import { corporateActions } from '../db/schema.ts';
import type { Change } from '../events/changes.ts';
import { adjustForAction, type Listing } from './adjust.ts';
import { recordNotices, type Notice } from './notify.ts';
import type { CorporateActionRow } from './store.ts';

export type ApplyDeps = Pick<AppDeps, 'db' | 'events' | 'redis' | 'log' | 'instruments' | 'senders'> & {
  /** Hands committed outbox rows to the delivery worker. */
  deliveries: { dispatch(deliveryIds: string[]): void };
};

export interface AppliedAction {
  action: CorporateActionRow;
  /** The listings adjusted: the action's own, then the company's others ('BSE:CENTURYTEX'). */
  listings: string[];
  rules: number;
  alerts: number;
  holdings: number;
  notices: Notice[];
}

/**
 * The listings an action adjusts: its own (as the file names it) and every other listing of the
 * company in the instrument master (same ISIN), except one with an action of its own of that
 * kind and ex-date, which adjusts it itself.
 */
async function listingsOf(
  tx: Tx,
  instruments: AppDeps['instruments'],
  action: CorporateActionRow,
): Promise<Listing[]> {
  const own: Listing = { exchange: action.exchange, symbol: action.symbol };
  const others = instruments
    .listingsOf(action.symbol, action.exchange)
    .filter((i) => i.exchange !== own.exchange || i.symbol !== own.symbol);
  if (others.length === 0) return [own];
  const theirOwn = await queryRows<Listing>(
    tx,
    sql`select exchange, symbol from corporate_actions
        where id <> ${action.id} and kind = ${action.kind} and ex_date = ${action.exDate}::date
          and (exchange, symbol) in (${sql.join(
            others.map((o) => sql`(${o.exchange}, ${o.symbol})`),
            sql`, `,
          )})`,
  );
  const covered = new Set(theirOwn.map((l) => `${l.exchange}:${l.symbol}`));
  return [
    own,
    ...others
      .filter((o) => !covered.has(`${o.exchange}:${o.symbol}`))
      .map((o) => ({ exchange: o.exchange, symbol: o.symbol })),
  ];
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
    const listings = await listingsOf(tx, deps.instruments, action);
    const adjusted = await adjustForAction(tx, action, listings);
    const notices = await recordNotices(tx, {
      action,
      adjustments: adjusted,
      channels: configuredChannels(deps.senders),
    });
    await tx
      .update(corporateActions)
      .set({
        adjustedRules: adjusted.rules.length,
        adjustedAlerts: adjusted.alerts.length,
        adjustedHoldings: adjusted.manual.length,
        notifiedUsers: new Set(notices.map((n) => n.userId)).size,
      })
      .where(sql`${corporateActions.id} = ${id}`);
    return {
      action,
      listings: listings.map((l) => `${l.exchange}:${l.symbol}`),
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
  }
  for (const userId of new Set(result.notices.map((n) => n.userId))) changes.push({ type: 'rules', userId });
  for (const userId of holdingUsers) changes.push({ type: 'holdings', userId });
  await deps.events.publish(changes);
  deps.log.info(
    {
      symbol: result.action.symbol,
      exDate: result.action.exDate,
      kind: result.action.kind,
      listings: result.listings,
      rules: result.rules,
      alerts: result.alerts,
      holdings: result.holdings,
      notices: result.notices.length,
    },
    'corporate action applied',
  );
  return result;
}
