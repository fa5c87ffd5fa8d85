/** Holdings changed one at a time: manual entry, inline edit, delete. */
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import type { AppDeps } from '../deps.ts';
import { brokerAccounts, holdings } from '../db/schema.ts';
import { Conflict, Forbidden, NotFound } from '../http/errors.ts';
import { ensureAccount } from './accounts.ts';

/** Manually added holdings live in the user's "Manual" account of type USER_ADDED. */
export const MANUAL_ACCOUNT = { brokerName: 'Manual', accountLabel: '' } as const;

export interface ManualHolding {
  userId: string;
  symbol: string;
  exchange: 'NSE' | 'BSE';
  quantity: number;
  averagePrice: number;
  isin?: string;
}

export type HoldingsDeps = Pick<AppDeps, 'db' | 'events'>;

export async function addManualHolding({ db, events }: HoldingsDeps, cmd: ManualHolding) {
  const row = await db.transaction(async (tx) => {
    const account = await ensureAccount(
      tx,
      cmd.userId,
      MANUAL_ACCOUNT.brokerName,
      MANUAL_ACCOUNT.accountLabel,
      'USER_ADDED',
    );
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
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new Conflict(`${cmd.symbol} (${cmd.exchange}) already exists`);
    return row;
  });
  events.emit('holdings:changed', cmd.userId);
  return row;
}

/** The user's holding with its account's broker type, or 404. */
export async function ownedHolding(db: Database, userId: string, id: string) {
  const [row] = await db
    .select({ holding: holdings, brokerType: brokerAccounts.brokerType })
    .from(holdings)
    .innerJoin(brokerAccounts, eq(brokerAccounts.id, holdings.brokerAccountId))
    .where(and(eq(holdings.id, id), eq(holdings.userId, userId)));
  if (!row) throw new NotFound('Holding not found');
  return row;
}

export async function updateHolding(
  { db, events }: HoldingsDeps,
  userId: string,
  id: string,
  change: { quantity?: number; average_price?: number },
  brokerType: string,
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
      updatedAt: new Date(),
    })
    .where(and(eq(holdings.id, id), eq(holdings.userId, userId)))
    .returning();
  if (!row) throw new NotFound('Holding not found');
  events.emit('holdings:changed', userId);
  return row;
}

export async function deleteHolding({ db, events }: HoldingsDeps, userId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(holdings)
    .where(and(eq(holdings.id, id), eq(holdings.userId, userId)))
    .returning({ id: holdings.id });
  if (deleted.length === 0) throw new NotFound('Holding not found');
  events.emit('holdings:changed', userId);
}

/** Deletes every holding of the user; returns how many. */
export async function deleteAllHoldings({ db, events }: HoldingsDeps, userId: string): Promise<number> {
  const deleted = await db.delete(holdings).where(eq(holdings.userId, userId)).returning({ id: holdings.id });
  if (deleted.length) events.emit('holdings:changed', userId);
  return deleted.length;
}

/** Deletes a broker account with its holdings. */
export async function deleteBrokerAccount({ db, events }: HoldingsDeps, userId: string, accountId: string) {
  const removed = await db
    .delete(brokerAccounts)
    .where(and(eq(brokerAccounts.id, accountId), eq(brokerAccounts.userId, userId)))
    .returning({ id: brokerAccounts.id });
  if (removed.length === 0) throw new NotFound('Broker account not found');
  events.emit('holdings:changed', userId);
}
