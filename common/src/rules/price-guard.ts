/**
 * Price Guard: the rule it gives each unguarded holding (the Holdings page's bulk setup and the
 * "Protect new holdings" setting alike), and what an upload or manual add says it protected.
 */
import { formatInr } from '../format/money.ts';
import { DEFAULT_RULE_DRAFT } from './draft.ts';

/** The Price Guard rule: an alert, trailing stop loss 7 %, from the latest price (docs/exit-rules.md). */
export const PRICE_GUARD_RULE = Object.freeze({ ...DEFAULT_RULE_DRAFT, reference: 'current' as const });

/**
 * The History row (`execution_type`) that tells the user a holding got its Price Guard rule with
 * its first price: in-app only, never emailed, never counted in the monthly quota.
 */
export const PRICE_GUARD_EXECUTION = 'PRICE_GUARD';

/** 'WIPRO got its first price, ₹450.00: Price Guard set a 7% trailing stop alert at ₹418.50.' */
export function firstPriceProtectionMessage(symbol: string, price: number, level: number): string {
  return (
    `${symbol} got its first price, ${formatInr(price)}: Price Guard set a ` +
    `${PRICE_GUARD_RULE.trigger_value}% trailing stop alert at ${formatInr(level)}.`
  );
}

/** What "Protect new holdings" did for the holdings an import or manual add created. */
export interface ApiNewHoldingsProtection {
  /** New holdings given the Price Guard rule. */
  protected: number;
  /** New holdings without a price yet: a level cannot be set, so they stay unprotected. */
  no_price: number;
  /** New holdings left unprotected because rules already cover as many holdings as the tier allows. */
  over_limit: number;
}

const holdings = (n: number) => `${n} new ${n === 1 ? 'holding' : 'holdings'}`;

/**
 * "3 new holdings protected by Price Guard." and, when some were not, why: no price yet, or the
 * tier's rule limit. Empty when no new holding needed protecting.
 */
export function protectionSentence(p: ApiNewHoldingsProtection): string {
  const parts: string[] = [];
  if (p.protected > 0) parts.push(`${holdings(p.protected)} protected by Price Guard.`);
  if (p.no_price > 0) {
    parts.push(
      `${holdings(p.no_price)} not protected yet: no price for ${p.no_price === 1 ? 'it' : 'them'} yet; ${p.no_price === 1 ? 'it gets its rule' : 'each gets its rule'} with its first price.`,
    );
  }
  if (p.over_limit > 0) {
    parts.push(
      `${holdings(p.over_limit)} left unprotected: your rules already cover as many holdings as your tier allows.`,
    );
  }
  return parts.join(' ');
}
