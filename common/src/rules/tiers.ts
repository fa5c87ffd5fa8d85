/** Subscription tiers (docs/exit-rules.md, Meaning) and the IST calendar month the email quota counts in. */
import type { SubscriptionTier } from './types.ts';

/**
 * Rules on one holding in one account (a stop, a target and a few alerts is generous): every
 * tier. With the holdings a tier may cover it bounds the rules a user can store.
 */
export const RULES_PER_HOLDING = 10;

/**
 * Holdings that rules may cover, triggers emailed per IST calendar month, rules stored (every
 * state) and price alerts armed at once.
 */
export const TIER_LIMITS = Object.freeze({
  basic: Object.freeze({ holdings: 50, monthlyEmails: 5, rules: 500, priceAlerts: 100 }),
  advanced: Object.freeze({ holdings: 200, monthlyEmails: Infinity, rules: 2000, priceAlerts: 300 }),
});

/** The refusal when a holding in an account already has its 10 rules (403). */
export function rulesPerHoldingMessage(symbol: string, account: string): string {
  return `${symbol} in ${account} already has ${RULES_PER_HOLDING} rules, the most one holding can have in one account. Delete a rule you no longer need before adding another.`;
}

/** The refusal when the user already stores the tier's rules (403). */
export function rulesLimitMessage(tier: SubscriptionTier): string {
  const { rules } = TIER_LIMITS[tier];
  return `You can have up to ${rules.toLocaleString('en-IN')} rules on the ${tierName(tier)} tier. Delete rules you no longer need before adding more.`;
}

/** The refusal when the user already has the tier's armed price alerts (403). */
export function priceAlertsLimitMessage(tier: SubscriptionTier): string {
  const { priceAlerts } = TIER_LIMITS[tier];
  return `You can have up to ${priceAlerts} active price alerts on the ${tierName(tier)} tier. Delete some before adding more.`;
}

const TIER_NAMES: Record<SubscriptionTier, string> = { basic: 'Basic', advanced: 'Advanced' };

/** The tier as Settings shows it (docs/notifications.md): Basic or Advanced, Basic by default. */
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

/**
 * The email quota in words (Settings, the Dashboard's quota card): stop losses are always
 * emailed; past the Basic tier's limit the rest show in the app only.
 */
export function quotaPolicy(tier: string | null | undefined): string {
  if (tier === 'advanced') return 'Every alert is emailed.';
  const limit = TIER_LIMITS.basic.monthlyEmails;
  return `The first ${limit} alerts each month are emailed. Stop losses are always emailed; after the ${limit}th, profit targets and price alerts show in the app only.`;
}

/** The quota card's note once the month's limit is used. */
export const QUOTA_REACHED_NOTE = 'Limit reached: stop losses are still emailed';

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
