/** The rule texts of drafts, Save All and the server's refusals (docs/exit-rules.md). */
import { formatInr } from '../format/money.ts';
import { RULE_KINDS, type TriggerType } from './kinds.ts';

/** Prices in messages are money, grouped the Indian way: ₹1,469.75 (issue #28). */
export function formatBound(value: number): string {
  return formatInr(value);
}

/** ' (this rule's level would be ₹19.75)': said when the level is computed, not typed. */
function levelNote(level: number | undefined): string {
  return level === undefined ? '' : ` (this rule's level would be ${formatInr(level)})`;
}

/** Saving one draft. */
export const RULE_MESSAGES = {
  triggerValue: 'Please enter a valid trigger value greater than 0',
  noPrice: 'Current price is not available for this stock.',
  invalidTrigger: 'Invalid trigger price calculated. Please check your input.',
  outOfRange: (min: number, max: number, level?: number) =>
    `Rule is not allowed for this price. Trigger price must be between ${formatBound(min)} and ${formatBound(max)} based on current price${levelNote(level)}`,
  sellComingSoon: 'Automatic sell orders are coming soon',
  accountRequired: 'Please choose an account for an account-specific rule',
  ruleNotFound: 'Rule not found',
  rulesNotFound: 'Some of these rules were not found',
} as const;

/** Save All. A draft without a price is told by `noPriceReason` (below): whether a price will ever come. */
export const SAVE_ALL_MESSAGES = {
  invalidTrigger: (symbol: string) => `Invalid trigger price calculated for ${symbol}`,
  outOfRange: (symbol: string, min: number, max: number, level?: number) =>
    `Rule is not allowed for ${symbol}. Trigger price must be between ${formatBound(min)} and ${formatBound(max)} based on current price${levelNote(level)}`,
  noValidRules: 'No valid rules to save. Ensure trigger values are > 0.',
  failed: 'Failed to save rules',
} as const;

/**
 * A level the price has already crossed: 'The stop loss level ₹412.50 is at or above the
 * current price ₹398.20; it would fire at once.'
 */
export function crossedLevelSentence(triggerType: TriggerType, level: number, currentPrice: number): string {
  const up = RULE_KINDS[triggerType].direction === 'above';
  return (
    `The ${RULE_KINDS[triggerType].levelWord} level ${formatInr(level)} is at or ${up ? 'below' : 'above'} ` +
    `the current price ${formatInr(currentPrice)}; it would fire at once.`
  );
}

/**
 * A rule whose level the price has already crossed: 'The stop loss level ₹412.50 is at or
 * above the current price ₹398.20; it would fire at once. Choose a lower level.'
 */
export function firesAtOnceMessage(triggerType: TriggerType, level: number, currentPrice: number): string {
  const up = RULE_KINDS[triggerType].direction === 'above';
  return `${crossedLevelSentence(triggerType, level, currentPrice)} Choose a ${up ? 'higher' : 'lower'} level.`;
}

/** The server has no quote for the instrument yet (POST /api/position-rules). */
export function noPriceDataMessage(symbol: string): string {
  return `No price data available for ${symbol}. Prices update every minute; please try again shortly.`;
}

/** A `reference: 'buy_price'` rule on an instrument the user does not hold. */
export function notHeldMessage(symbol: string, exchange: string): string {
  return `You don't hold ${symbol} (${exchange}). Add the holding first, or set a price alert instead.`;
}

/** A `specific_account` rule whose account does not hold the instrument. */
export function notHeldInAccountMessage(symbol: string, exchange: string): string {
  return `That account doesn't hold ${symbol} (${exchange}). Choose another account, or apply the rule to all holdings.`;
}

/**
 * Why a holding cannot be given a rule yet: it has no price. A symbol that is not in the exchange
 * list (a typo: RELIANSE) never will, so saying "refresh and try again" would never help.
 */
export function noPriceReason(symbol: string, listed: boolean): string {
  return listed
    ? `no price for ${symbol} yet: its first price usually comes within a minute`
    : `no price for ${symbol}: it is not in the exchange list`;
}
