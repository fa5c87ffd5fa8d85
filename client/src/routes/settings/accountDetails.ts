/** The Account Information card's texts (docs/notifications.md). Pure: unit-tested in test/client. */
import type { SessionUser } from '../../session/types.ts';

const TIER_LABELS: Record<string, string> = { basic: 'Basic', advanced: 'Advanced' };

/** Shown for a name or email the account does not have. */
export const MISSING = 'N/A';

/** 'Basic' or 'Advanced'; anything else (or nothing) reads Basic. */
export function tierLabel(tier: string | null | undefined): string {
  return (tier && TIER_LABELS[tier]) || 'Basic';
}

/** Name, Email and Subscription Tier as the card shows them, 'N/A' for what is missing. */
export function accountDetails(
  user: Partial<Pick<SessionUser, 'name' | 'email' | 'subscription_tier'>> | null,
) {
  return {
    name: user?.name?.trim() || MISSING,
    email: user?.email?.trim() || MISSING,
    tier: tierLabel(user?.subscription_tier),
  };
}
