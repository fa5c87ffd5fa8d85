import { and, eq } from 'drizzle-orm';
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
  userId: string,
  brokerName: string,
  accountLabel: string,
  brokerType: 'USER_ADDED' | 'CSV_IMPORT',
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
export async function ownedAccount(db: Executor, userId: string, accountId: string): Promise<BrokerAccount> {
  const [account] = await db
    .select()
    .from(brokerAccounts)
    .where(and(eq(brokerAccounts.id, accountId), eq(brokerAccounts.userId, userId)));
  if (!account) throw new NotFound('Broker account not found');
  return account;
}
