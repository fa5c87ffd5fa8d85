/**
 * Setting a user's subscription tier by hand (`npm run user:tier`, an operator's tool: there is no
 * billing). Every limit reads the tier from the database, and the signed-in session cache keeps a
 * user row for a second (auth/session-users.ts), so the new tier holds everywhere within a second
 * with nothing to publish. Messaging apps are on the Advanced tier: going to Basic turns the
 * user's WhatsApp and Telegram endpoints off with a reason, and going back to Advanced turns on
 * those it had turned off.
 */
import { MESSAGING_CHANNELS } from '@app/common/notifications/channels';
import type { SubscriptionTier } from '@app/common/rules/index';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { notificationEndpoints, users } from '../db/schema.ts';

export const TIERS: readonly SubscriptionTier[] = ['basic', 'advanced'];

/** The reason on a messaging endpoint turned off by a move to Basic. */
export const BASIC_TIER_REASON = 'Messaging apps are on the Advanced tier';

export class UnknownUser extends Error {
  constructor(email: string) {
    super(`No user has the email ${email}. Users appear once they have signed in.`);
    this.name = 'UnknownUser';
  }
}

export interface TierChange {
  userId: string;
  email: string;
  from: SubscriptionTier;
  to: SubscriptionTier;
  /** Messaging endpoints turned off (to Basic) or back on (to Advanced). */
  endpointsChanged: number;
}

/** Sets the tier of the user whose email is `email` (case-insensitive). */
export async function setUserTier(
  db: Database,
  { email, tier }: { email: string; tier: SubscriptionTier },
): Promise<TierChange> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, email: users.email, tier: users.subscriptionTier })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email.trim()})`)
      .orderBy(users.createdAt)
      .limit(1)
      .for('update');
    if (!user) throw new UnknownUser(email.trim());
    await tx
      .update(users)
      .set({ subscriptionTier: tier, updatedAt: sql`now()` })
      .where(eq(users.id, user.id));
    const e = notificationEndpoints;
    const messaging = and(eq(e.userId, user.id), inArray(e.type, [...MESSAGING_CHANNELS]));
    const changed =
      tier === 'basic'
        ? await tx
            .update(e)
            .set({ isActive: false, inactiveReason: BASIC_TIER_REASON })
            .where(and(messaging, eq(e.isActive, true)))
            .returning({ id: e.id })
        : await tx
            .update(e)
            .set({ isActive: true, inactiveReason: null })
            .where(and(messaging, eq(e.isActive, false), eq(e.inactiveReason, BASIC_TIER_REASON)))
            .returning({ id: e.id });
    return {
      userId: user.id,
      email: user.email,
      from: user.tier,
      to: tier,
      endpointsChanged: changed.length,
    };
  });
}
