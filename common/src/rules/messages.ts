/** The rule texts of spec §5 (Rule draft) and §8 (Save All), verbatim, and the server's own. */
import { formatInr } from '../format/money.ts';
import type { TriggerType } from './types.ts';

/** Prices in messages: 2 decimals, no currency sign, as the spec's bound sentence prints them. */
export function formatBound(value: number): string {
  return value.toFixed(2);
}

/** Saving one draft (spec §5 Rule draft, §8 Single save). */
export const RULE_MESSAGES = {
  triggerValue: 'Please enter a valid trigger value greater than 0',
  noPrice: 'Current price is not available for this stock.',
  invalidTrigger: 'Invalid trigger price calculated. Please check your input.',
  outOfRange: (min: number, max: number) =>
    `Rule is not allowed for this price. Trigger price must be between ${formatBound(min)} and ${formatBound(max)} based on current price`,
  sellComingSoon: 'Automatic sell orders are coming soon',
  accountRequired: 'Please choose an account for an account-specific rule',
  ruleNotFound: 'Rule not found',
  rulesNotFound: 'Some of these rules were not found',
} as const;

/** Save All (spec §5, §8). */
export const SAVE_ALL_MESSAGES = {
  noPrice: (symbol: string) => `Current price not available for ${symbol}. Please refresh and try again.`,
  invalidTrigger: (symbol: string) => `Invalid trigger price calculated for ${symbol}`,
  outOfRange: (symbol: string, min: number, max: number) =>
    `Rule is not allowed for ${symbol}. Trigger price must be between ${formatBound(min)} and ${formatBound(max)} based on current price`,
  noValidRules: 'No valid rules to save. Ensure trigger values are > 0.',
  failed: 'Failed to save rules',
} as const;

const LEVEL_NAMES: Record<TriggerType, string> = {
  FIXED_STOP_LOSS: 'stop loss',
  TRAILING_STOP_LOSS: 'trailing stop',
  TAKE_PROFIT: 'take profit',
};

/**
 * A rule whose level the price has already crossed: 'The stop loss level ₹412.50 is at or
 * above the current price ₹398.20; it would fire at once. Choose a lower level.'
 */
export function firesAtOnceMessage(triggerType: TriggerType, level: number, currentPrice: number): string {
  const up = triggerType === 'TAKE_PROFIT';
  return (
    `The ${LEVEL_NAMES[triggerType]} level ${formatInr(level)} is at or ${up ? 'below' : 'above'} ` +
    `the current price ${formatInr(currentPrice)}; it would fire at once. Choose a ${up ? 'higher' : 'lower'} level.`
  );
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
