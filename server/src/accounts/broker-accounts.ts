import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { brokerAccounts } from '../db/schema.ts';
import { NotFound } from '../http/errors.ts';

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

/** GET /api/brokers: one of the user's accounts, with how many holdings it has. */
export interface ApiBrokerAccount {
  broker_account_id: string;
  broker_name: string;
  account_label: string;
  display_name: string;
  broker_type: string;
  account_status: string;
  holdings_count: number;
  created_at: string;
  /** The broker an API account is connected through; null for imports and manual entry. */
  broker_id: string | null;
  last_synced_at: string | null;
  token_expires_at: string | null;
  status_changed_at: string | null;
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
    display_name: [a.brokerName, a.accountLabel].filter(Boolean).join(' · '),
    broker_type: a.brokerType,
    account_status: a.accountStatus,
    holdings_count: count,
    created_at: a.createdAt.toISOString(),
    broker_id: a.brokerId,
    last_synced_at: a.lastSyncedAt?.toISOString() ?? null,
    token_expires_at: a.tokenExpiresAt?.toISOString() ?? null,
    status_changed_at: a.statusChangedAt?.toISOString() ?? null,
  }));
}
