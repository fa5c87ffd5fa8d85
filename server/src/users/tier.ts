/** The user's subscription tier, read under a lock on the user's row. */
import type { SubscriptionTier } from '@app/common/rules/index';
import { eq } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { NotFound } from '../http/errors.ts';

/**
 * Locks the user's row for the rest of the transaction and returns the tier: every per-user
 * limit check (rules, price alerts, holdings) takes this lock first, so two changes at once
 * cannot both pass.
 */
export async function lockUserTier(tx: Tx, userId: string): Promise<SubscriptionTier> {
  const [row] = await tx
    .select({ tier: users.subscriptionTier })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  if (!row) throw new NotFound('User not found');
  return row.tier;
}
