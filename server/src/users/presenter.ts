import type { SessionUser } from '../auth/require-user.ts';

/** The user as the client sees it (spec §3 User). */
export function presentUser(user: SessionUser) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    picture: user.picture,
    subscription_tier: user.subscriptionTier,
    created_at: user.createdAt.toISOString(),
  };
}
