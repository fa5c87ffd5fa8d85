/**
 * Accounts connected over a broker's API (broker_type API, docs/holdings.md#connect-a-broker):
 * found or created by the broker's client id, so a reconnect lands on the same account; the
 * session stored sealed (brokers/token-vault.ts); the status (CONNECTED, EXPIRED, ERROR) with
 * when it changed; and the sync lease that lets one sync per account run at a time across
 * instances.
 */
import { BROKER_NAMES, type BrokerId, type ConnectionStatus } from '@app/common/api/brokers';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { brokerAccounts } from '../db/schema.ts';
import type { BrokerAccount } from './broker-accounts.ts';

/** A sync holding the lease longer than this is taken to have died: another may start. */
const SYNC_LEASE = sql`interval '2 minutes'`;

/**
 * The user's account at `brokerId` for client `clientId`, created when missing, with the new
 * session (sealed) stored and the status CONNECTED.
 */
export async function storeConnection(
  db: Executor,
  cmd: { userId: string; brokerId: BrokerId; clientId: string; sealed: string; expiresAt: Date; at: Date },
): Promise<BrokerAccount> {
  const values = {
    brokerId: cmd.brokerId,
    tokenCiphertext: cmd.sealed,
    tokenExpiresAt: cmd.expiresAt,
    accountStatus: 'CONNECTED' satisfies ConnectionStatus,
    statusChangedAt: cmd.at,
    lastError: null,
    updatedAt: cmd.at,
  };
  const [account] = await db
    .insert(brokerAccounts)
    .values({
      userId: cmd.userId,
      brokerType: 'API',
      brokerName: BROKER_NAMES[cmd.brokerId],
      accountLabel: cmd.clientId,
      ...values,
    })
    .onConflictDoUpdate({
      target: [
        brokerAccounts.userId,
        brokerAccounts.brokerType,
        brokerAccounts.brokerName,
        brokerAccounts.accountLabel,
      ],
      set: values,
    })
    .returning();
  return account!;
}

/** Marks an API account EXPIRED or ERROR (with when, and the log's reason); the session is kept. */
export async function markConnection(
  db: Executor,
  cmd: { accountId: string; status: Exclude<ConnectionStatus, 'CONNECTED'>; reason: string; at: Date },
): Promise<void> {
  await db
    .update(brokerAccounts)
    .set({
      accountStatus: cmd.status,
      statusChangedAt: sql`case when ${brokerAccounts.accountStatus} = ${cmd.status} then ${brokerAccounts.statusChangedAt} else ${cmd.at.toISOString()}::timestamptz end`,
      lastError: cmd.reason,
      updatedAt: cmd.at,
    })
    .where(eq(brokerAccounts.id, cmd.accountId));
}

/**
 * Takes the account's sync lease: the account as it is now, or null when another sync holds it
 * (started less than two minutes ago).
 */
export async function takeSyncLease(db: Executor, accountId: string): Promise<BrokerAccount | null> {
  const [account] = await db
    .update(brokerAccounts)
    .set({ syncStartedAt: sql`now()` })
    .where(
      and(
        eq(brokerAccounts.id, accountId),
        or(
          isNull(brokerAccounts.syncStartedAt),
          lt(brokerAccounts.syncStartedAt, sql`now() - ${SYNC_LEASE}`),
        ),
      ),
    )
    .returning();
  return account ?? null;
}

/** Gives the lease back, whatever the sync's outcome. */
export async function releaseSyncLease(db: Executor, accountId: string): Promise<void> {
  await db.update(brokerAccounts).set({ syncStartedAt: null }).where(eq(brokerAccounts.id, accountId));
}

/** API accounts CONNECTED whose token is still valid at `at`: the daily sync's list, by broker. */
export async function syncableAccounts(db: Executor, at: Date): Promise<BrokerAccount[]> {
  return db
    .select()
    .from(brokerAccounts)
    .where(
      and(
        eq(brokerAccounts.brokerType, 'API'),
        eq(brokerAccounts.accountStatus, 'CONNECTED' satisfies ConnectionStatus),
        sql`${brokerAccounts.tokenExpiresAt} > ${at.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(brokerAccounts.brokerId, brokerAccounts.id);
}
