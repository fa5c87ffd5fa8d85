/**
 * "Protect new holdings with Price Guard" (a setting, off by default): the holdings an import or
 * a manual add creates get the Price Guard rule, in the transaction that creates them, unless an
 * active rule covers them already. A holding without a price yet cannot be armed (no level) and
 * one beyond the tier's rule limit cannot be covered: both stay unprotected and are counted, so
 * the summary says so. The caller announces `rules:changed` after its commit when any was made.
 */
import type { Exchange } from '@app/common/instruments/types';
import { instrumentKey } from '@app/common/market/tick-batch';
import { ruleCoversAccount } from '@app/common/portfolio/rules';
import { PRICE_GUARD_RULE, TIER_LIMITS, type ApiNewHoldingsProtection } from '@app/common/rules/index';
import { eq } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { positionRules, users } from '../db/schema.ts';
import { lockUserTier } from '../users/tier.ts';
import { armRequestOf, armRule, loadHoldingsBook, type ArmedLevels } from './arm.ts';
import { activeRuleScopes } from './coverage.ts';
import { coveredInstruments } from './limits.ts';
import { latestQuotes } from './quotes.ts';
import { newRuleValues } from './service.ts';

/** A holding the change created: an instrument in one account. */
export interface NewHolding {
  symbol: string;
  exchange: Exchange;
  accountId: string;
}

/**
 * Gives each new holding without an active rule the Price Guard rule, in `tx` (after the
 * holdings are written). Null when the user has not turned the setting on.
 */
export async function protectNewHoldings(
  tx: Tx,
  { userId, created }: { userId: string; created: readonly NewHolding[] },
): Promise<ApiNewHoldingsProtection | null> {
  const [user] = await tx.select({ on: users.protectNewHoldings }).from(users).where(eq(users.id, userId));
  if (!user?.on) return null;
  const outcome: ApiNewHoldingsProtection = { protected: 0, no_price: 0, over_limit: 0 };
  if (created.length === 0) return outcome;

  const tier = await lockUserTier(tx, userId);
  const active = await activeRuleScopes(tx, userId);
  const bare = created.filter(
    (h) => !active.some((rule) => ruleCoversAccount(rule, h.symbol, h.exchange, h.accountId)),
  );
  if (bare.length === 0) return outcome;

  const book = await loadHoldingsBook(tx, userId);
  const quotes = await latestQuotes(tx, bare);
  const covered = await coveredInstruments(tx, userId);
  const limit = TIER_LIMITS[tier].holdings;
  const rules = [];
  for (const holding of bare) {
    const rule = {
      ...PRICE_GUARD_RULE,
      symbol: holding.symbol,
      exchange: holding.exchange,
      rule_scope: 'specific_account' as const,
      target_account_id: holding.accountId,
      sell_quantity_type: 'ALL_REMAINING' as const,
      order_type: 'MARKET' as const,
      priority: 1,
    };
    const armed = armRule(armRequestOf(rule), book, quotes);
    // A 7 % stop under the latest price is always a valid level: only a missing price (or one
    // too small to set a level under) stops it.
    if (!armed.ok) {
      outcome.no_price += 1;
      continue;
    }
    const key = instrumentKey(holding.exchange, holding.symbol);
    if (!covered.has(key) && covered.size >= limit) {
      outcome.over_limit += 1;
      continue;
    }
    covered.add(key);
    rules.push(newRuleValues(userId, rule, armed as ArmedLevels));
  }
  if (rules.length > 0) await tx.insert(positionRules).values(rules);
  outcome.protected = rules.length;
  return outcome;
}
