import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { brokerAccounts } from '../db/schema.ts';
import { NotFound } from '../http/errors.ts';
import type { ApiBrokerAccount, BrokerId } from '@app/common/api/brokers';

export type BrokerAccount = typeof brokerAccounts.$inferSelect;

/**
 * The user's account of `brokerType` named `brokerName` + `accountLabel`, created when missing.
 * The type is part of the key: an upload (CSV_IMPORT) never lands in the manual account
 * (USER_ADDED), whatever name it is given.
 */
export async function ensureAccount(
  db: Executor,
  {
    userId,
    brokerName,
    accountLabel,
    brokerType,
  }: { userId: string; brokerName: string; accountLabel: string; brokerType: 'USER_ADDED' | 'CSV_IMPORT' },
): Promise<BrokerAccount> {
  const [account] = await db
    .insert(brokerAccounts)
    .values({ userId, brokerName, accountLabel, brokerType, accountStatus: 'ACTIVE' })
    .onConflictDoUpdate({
      target: [
        brokerAccounts.userId,
        brokerAccounts.brokerType,
        brokerAccounts.brokerName,
        brokerAccounts.accountLabel,
      ],
      set: { updatedAt: new Date() },
    })
    .returning();
  return account!;
}

/** The user's own account, or 404 (also for malformed ids and other users' accounts). */
export async function ownedAccount(
  db: Executor,
  { userId, accountId }: { userId: string; accountId: string },
): Promise<BrokerAccount> {
  const [account] = await db
    .select()
    .from(brokerAccounts)
    .where(and(eq(brokerAccounts.id, accountId), eq(brokerAccounts.userId, userId)));
  if (!account) throw new NotFound('Broker account not found');
  return account;
}

/** 'Zerodha · main': the broker's name and the account's label, as every listing shows an account. */
export function accountDisplayName(a: { brokerName: string; accountLabel: string }): string {
  return [a.brokerName, a.accountLabel].filter(Boolean).join(' · ');
}

/** The user's broker accounts (imports and manual), by broker and label, with their holdings counts. */
export async function listBrokerAccounts(
  db: Executor,
  { userId }: { userId: string },
): Promise<ApiBrokerAccount[]> {
  const rows = await db
    .select({
      a: brokerAccounts,
      holdings: sql<number>`(select count(*)::int from holdings h where h.broker_account_id = "broker_accounts"."id")`,
    })
    .from(brokerAccounts)
    .where(eq(brokerAccounts.userId, userId))
    .orderBy(brokerAccounts.brokerName, brokerAccounts.accountLabel);
  return rows.map(({ a, holdings: count }) => ({
    broker_account_id: a.id,
    broker_name: a.brokerName,
    account_label: a.accountLabel,
    display_name: accountDisplayName(a),
    broker_type: a.brokerType,
    account_status: a.accountStatus,
    holdings_count: count,
    created_at: a.createdAt.toISOString(),
    broker_id: a.brokerId as BrokerId | null,
    last_synced_at: a.lastSyncedAt?.toISOString() ?? null,
    token_expires_at: a.tokenExpiresAt?.toISOString() ?? null,
    status_changed_at: a.statusChangedAt?.toISOString() ?? null,
  }));
}
