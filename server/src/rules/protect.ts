/**
 * "Protect new holdings with Price Guard" (a setting, off by default): the holdings an import or
 * a manual add creates get the Price Guard rule, in the transaction that creates them, unless an
 * active rule covers them already. A holding without a price yet cannot be armed (no level) and
 * one beyond the tier's rule limit cannot be covered: both stay unprotected and are counted, so
 * the summary says so. One without a price is marked waiting (`guard_pending_since`): it gets its
 * rule with its first price (protect-on-price.ts). The caller announces `rules:changed` after its
 * commit when any was made.
 */
import type { Exchange } from '@app/common/instruments/types';
import { instrumentKey } from '@app/common/market/tick-batch';
import { ruleCoversAccount } from '@app/common/portfolio/rules';
import { PRICE_GUARD_RULE, TIER_LIMITS, type ApiNewHoldingsProtection } from '@app/common/rules/index';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { holdings, positionRules, users } from '../db/schema.ts';
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
  cmd: ProtectCommand,
): Promise<ApiNewHoldingsProtection | null> {
  return (await protectHoldings(tx, cmd))?.outcome ?? null;
}

/** The holdings to protect, and when (the clock's now: the rules' levels are set then). */
export interface ProtectCommand {
  userId: string;
  created: readonly NewHolding[];
  at: Date;
}

/** A Price Guard rule given to a holding: the rule row and the price it was armed at. */
export interface GuardRuleMade {
  rule: typeof positionRules.$inferSelect;
  price: number;
}

/**
 * {@link protectNewHoldings}, with the rules it made. Holdings left without a price are marked
 * waiting for their first one.
 */
export async function protectHoldings(
  tx: Tx,
  { userId, created, at }: ProtectCommand,
): Promise<{ outcome: ApiNewHoldingsProtection; made: GuardRuleMade[] } | null> {
  const [user] = await tx.select({ on: users.protectNewHoldings }).from(users).where(eq(users.id, userId));
  if (!user?.on) return null;
  const outcome: ApiNewHoldingsProtection = { protected: 0, no_price: 0, over_limit: 0 };
  const made: GuardRuleMade[] = [];
  if (created.length === 0) return { outcome, made };

  const tier = await lockUserTier(tx, userId);
  const active = await activeRuleScopes(tx, userId);
  const bare = created.filter(
    (h) => !active.some((rule) => ruleCoversAccount(rule, h.symbol, h.exchange, h.accountId)),
  );
  if (bare.length === 0) return { outcome, made };

  const book = await loadHoldingsBook(tx, userId);
  const quotes = await latestQuotes(tx, bare);
  const covered = await coveredInstruments(tx, userId);
  const limit = TIER_LIMITS[tier].holdings;
  const rules = [];
  const prices: number[] = [];
  const waiting: NewHolding[] = [];
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
      waiting.push(holding);
      continue;
    }
    const key = instrumentKey(holding.exchange, holding.symbol);
    if (!covered.has(key) && covered.size >= limit) {
      outcome.over_limit += 1;
      continue;
    }
    covered.add(key);
    rules.push(newRuleValues(userId, rule, armed as ArmedLevels, at));
    prices.push(armed.currentPrice);
  }
  if (rules.length > 0) {
    const rows = await tx.insert(positionRules).values(rules).returning();
    rows.forEach((rule, i) => made.push({ rule, price: prices[i]! }));
  }
  for (const h of waiting) await markWaiting(tx, userId, h);
  outcome.protected = rules.length;
  return { outcome, made };
}

/** The holding waits for its first price to get its Price Guard rule. */
async function markWaiting(tx: Tx, userId: string, h: NewHolding): Promise<void> {
  await tx
    .update(holdings)
    .set({ guardPendingSince: sql`coalesce(${holdings.guardPendingSince}, now())` })
    .where(
      and(
        eq(holdings.userId, userId),
        eq(holdings.brokerAccountId, h.accountId),
        eq(holdings.symbol, h.symbol),
        eq(holdings.exchange, h.exchange),
      ),
    );
}
