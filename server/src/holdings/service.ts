/** Holdings changed one at a time: manual entry, inline edit, delete. */
import type { Exchange } from '@app/common/instruments/types';
import { and, count, eq } from 'drizzle-orm';
import type { Database, Tx } from '../db/client.ts';
import type { AppDeps } from '../deps.ts';
import { brokerAccounts, holdings, positionRules } from '../db/schema.ts';
import { Conflict, Forbidden, NotFound } from '../http/errors.ts';
import { protectNewHoldings } from '../rules/protect.ts';
import { deleteUncoveredRules } from '../rules/uncovered.ts';
import { ensureAccount } from '../accounts/broker-accounts.ts';
import { assertHoldingsRoom } from './limits.ts';

/**
 * Manually added holdings live in the user's one account of type USER_ADDED, shown as "Manual".
 * It is found by its type (accounts.ts), so no upload can reach it by naming itself "Manual".
 */
export const MANUAL_ACCOUNT = { brokerName: 'Manual', accountLabel: '' } as const;

export interface ManualHolding {
  userId: string;
  symbol: string;
  exchange: Exchange;
  quantity: number;
  averagePrice: number;
  isin?: string;
}

export type HoldingsDeps = Pick<AppDeps, 'db' | 'events' | 'now'>;

/**
 * Adds a holding by hand; with "Protect new holdings" on, it gets the Price Guard rule in the
 * same transaction (`price_guard` says whether it did, null while the setting is off).
 */
export async function addManualHolding(
  deps: HoldingsDeps & Pick<AppDeps, 'redis' | 'log'>,
  cmd: ManualHolding,
) {
  const { db, events } = deps;
  const at = deps.now();
  const added = await db.transaction(async (tx) => {
    const account = await ensureAccount(tx, {
      userId: cmd.userId,
      ...MANUAL_ACCOUNT,
      brokerType: 'USER_ADDED',
    });
    const [held] = await tx
      .select({ count: count() })
      .from(holdings)
      .where(eq(holdings.brokerAccountId, account.id));
    await assertHoldingsRoom(tx, {
      userId: cmd.userId,
      accountId: account.id,
      accountName: MANUAL_ACCOUNT.brokerName,
      accountAfter: (held?.count ?? 0) + 1,
    });
    const [row] = await tx
      .insert(holdings)
      .values({
        userId: cmd.userId,
        brokerAccountId: account.id,
        symbol: cmd.symbol,
        exchange: cmd.exchange,
        isin: cmd.isin ?? null,
        quantity: String(cmd.quantity),
        averagePrice: cmd.averagePrice.toFixed(4),
        lotSetAt: at,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new Conflict(`${cmd.symbol} (${cmd.exchange}) already exists`);
    const guard = await protectNewHoldings(tx, {
      userId: cmd.userId,
      created: [{ symbol: row.symbol, exchange: row.exchange, accountId: account.id }],
      at,
    });
    return { row, guard };
  });
  void events.publish([
    { type: 'holdings', userId: cmd.userId },
    ...((added.guard?.protected ?? 0) > 0 ? [{ type: 'rules' as const, userId: cmd.userId }] : []),
  ]);
  return added;
}

/** The user's holding with its account's broker type, or 404. */
/** The user's own holding with its account's type, or 404 (also for other users' holdings). */
export async function ownedHolding(db: Database, { userId, id }: { userId: string; id: string }) {
  const [row] = await db
    .select({ holding: holdings, brokerType: brokerAccounts.brokerType })
    .from(holdings)
    .innerJoin(brokerAccounts, eq(brokerAccounts.id, holdings.brokerAccountId))
    .where(and(eq(holdings.id, id), eq(holdings.userId, userId)));
  if (!row) throw new NotFound('Holding not found');
  return row;
}

/** What an inline edit changes on a holding (its account's `brokerType` says whether it may). */
export interface HoldingChange {
  userId: string;
  id: string;
  brokerType: string;
  change: { quantity?: number; average_price?: number };
}

/** Edits a manually added holding (imported ones are refused), then tells every instance. */
export async function updateHolding(
  { db, events, now }: HoldingsDeps,
  { userId, id, brokerType, change }: HoldingChange,
) {
  if (brokerType !== 'USER_ADDED') {
    throw new Forbidden(
      'Only holdings you added manually can be edited. Re-upload the broker file to change imported holdings.',
    );
  }
  const [row] = await db
    .update(holdings)
    .set({
      ...(change.quantity !== undefined ? { quantity: String(change.quantity) } : {}),
      ...(change.average_price !== undefined ? { averagePrice: change.average_price.toFixed(4) } : {}),
      ...(change.quantity !== undefined || change.average_price !== undefined ? { lotSetAt: now() } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(holdings.id, id), eq(holdings.userId, userId)))
    .returning();
  if (!row) throw new NotFound('Holding not found');
  void events.publish({ type: 'holdings', userId });
  return row;
}

/** Deleting holdings also deletes the rules left covering nothing, and tells every instance. */
export type HoldingsRemovalDeps = HoldingsDeps & Pick<AppDeps, 'redis' | 'log'>;

/** What a removal deleted: rows, and rules it deleted itself (besides the uncovered ones). */
interface Removed {
  count: number;
  rules?: string[];
  /** A broker account went (the feed's token may have been its). */
  account?: boolean;
}

/**
 * Runs `remove` and deletes the rules it left uncovered, in one transaction; after the commit,
 * `holdings:changed`, and `rules:changed` (here and on every other instance) when rules went.
 */
async function removeWithRules(
  deps: HoldingsRemovalDeps,
  userId: string,
  remove: (tx: Tx) => Promise<Removed>,
): Promise<number> {
  const { count, rules, account } = await deps.db.transaction(async (tx) => {
    const removed = await remove(tx);
    const uncovered = removed.count > 0 ? await deleteUncoveredRules(tx, userId) : [];
    return { ...removed, rules: [...(removed.rules ?? []), ...uncovered] };
  });
  void deps.events.publish([
    ...(count > 0 ? [{ type: 'holdings' as const, userId }] : []),
    ...(account ? [{ type: 'brokers' as const, userId }] : []),
    ...(rules.length > 0 ? [{ type: 'rules' as const, userId }] : []),
  ]);
  return count;
}

/** Deletes one holding, and the user's rules that covered only it. */
export async function deleteHolding(
  deps: HoldingsRemovalDeps,
  { userId, id }: { userId: string; id: string },
): Promise<void> {
  await removeWithRules(deps, userId, async (tx) => {
    const deleted = await tx
      .delete(holdings)
      .where(and(eq(holdings.id, id), eq(holdings.userId, userId)))
      .returning({ id: holdings.id });
    if (deleted.length === 0) throw new NotFound('Holding not found');
    return { count: deleted.length };
  });
}

/** Deletes every holding of the user, and with them every position rule; returns how many holdings. */
export async function deleteAllHoldings(deps: HoldingsRemovalDeps, userId: string): Promise<number> {
  return removeWithRules(deps, userId, async (tx) => {
    const deleted = await tx
      .delete(holdings)
      .where(eq(holdings.userId, userId))
      .returning({ id: holdings.id });
    return { count: deleted.length };
  });
}

/** Deletes a broker account with its holdings, and the rules left covering nothing. */
export async function deleteBrokerAccount(
  deps: HoldingsRemovalDeps,
  { userId, accountId }: { userId: string; accountId: string },
) {
  await removeWithRules(deps, userId, async (tx) => {
    // Its account-specific rules go with it; deleted here so the other instances hear of them.
    const cascaded = await tx
      .delete(positionRules)
      .where(and(eq(positionRules.userId, userId), eq(positionRules.targetAccountId, accountId)))
      .returning({ id: positionRules.id });
    const removed = await tx
      .delete(brokerAccounts)
      .where(and(eq(brokerAccounts.id, accountId), eq(brokerAccounts.userId, userId)))
      .returning({ id: brokerAccounts.id });
    if (removed.length === 0) throw new NotFound('Broker account not found');
    return { count: removed.length, rules: cascaded.map((r) => r.id), account: true };
  });
}
