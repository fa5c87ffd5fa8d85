/** Subscription tiers (spec §6, ARCHITECTURE §6) and the IST calendar month the email quota counts in. */
import type { SubscriptionTier } from './types.ts';

/** Holdings that rules may cover, and triggers emailed per IST calendar month. */
export const TIER_LIMITS = Object.freeze({
  basic: Object.freeze({ holdings: 50, monthlyEmails: 5 }),
  advanced: Object.freeze({ holdings: 200, monthlyEmails: Infinity }),
});

const TIER_NAMES: Record<SubscriptionTier, string> = { basic: 'Basic', advanced: 'Advanced' };

/** The tier as shown (spec §2 Settings): Basic or Advanced, Basic by default. */
export function tierName(tier: string | null | undefined): string {
  return tier === 'advanced' ? TIER_NAMES.advanced : TIER_NAMES.basic;
}

/** The refusal when new rules would cover more distinct holdings than the tier allows (403). */
export function holdingsLimitMessage(tier: SubscriptionTier): string {
  const { holdings } = TIER_LIMITS[tier];
  return tier === 'basic'
    ? `Rules can cover up to ${holdings} holdings on the Basic tier. Upgrade to the Advanced tier to protect up to ${TIER_LIMITS.advanced.holdings} holdings.`
    : `Rules can cover up to ${holdings} holdings on the Advanced tier. Remove rules from holdings you no longer need before adding new ones.`;
}

/** Added to a trigger's message when it was recorded but not emailed (monthly limit reached). */
export function overQuotaNote(tier: SubscriptionTier = 'basic'): string {
  const limit = TIER_LIMITS[tier].monthlyEmails;
  return `Not emailed: the monthly alert limit of ${limit} emails on the ${tierName(tier)} tier was reached. Upgrade to the Advanced tier for unlimited email alerts.`;
}

/** India has no daylight saving: IST is always UTC+05:30. */
const IST_OFFSET_MS = 330 * 60_000;

/** Midnight IST on the 1st of the month `at` falls in, as an instant. */
export function istMonthStart(at: Date | number): Date {
  const ist = new Date((typeof at === 'number' ? at : at.getTime()) + IST_OFFSET_MS);
  return new Date(Date.UTC(ist.getUTCFullYear(), ist.getUTCMonth(), 1) - IST_OFFSET_MS);
}

/** Midnight IST on the 1st of the next month: when the email quota resets. */
export function nextIstMonthStart(at: Date | number): Date {
  const ist = new Date((typeof at === 'number' ? at : at.getTime()) + IST_OFFSET_MS);
  return new Date(Date.UTC(ist.getUTCFullYear(), ist.getUTCMonth() + 1, 1) - IST_OFFSET_MS);
}
