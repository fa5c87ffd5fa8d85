import type { users } from '../db/schema.ts';

/** The user as the client sees it (docs/auth.md). */
export function presentUser(user: typeof users.$inferSelect) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    picture: user.picture,
    subscription_tier: user.subscriptionTier,
    created_at: user.createdAt.toISOString(),
  };
}
