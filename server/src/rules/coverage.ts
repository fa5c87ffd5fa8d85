/** GET /api/position-rules/coverage: how many of the user's holdings an active rule protects. */
import { holdingsCoverage, type Coverage } from '@app/common/portfolio/coverage';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { holdings, positionRules } from '../db/schema.ts';

/** Counted as the dashboard and the Holdings filter count (common/src/portfolio/coverage.ts). */
export async function ruleCoverage(db: Executor, userId: string): Promise<Coverage> {
  const [held, rules] = await Promise.all([
    db
      .select({
        symbol: holdings.symbol,
        exchange: holdings.exchange,
        broker_account_id: holdings.brokerAccountId,
      })
      .from(holdings)
      .where(eq(holdings.userId, userId)),
    activeRuleScopes(db, userId),
  ]);
  return holdingsCoverage(held, rules);
}

/** What each of the user's active rules covers: its instrument, and its account or all of them. */
export function activeRuleScopes(db: Executor, userId: string) {
  return db
    .select({
      symbol: positionRules.symbol,
      exchange: positionRules.exchange,
      is_active: positionRules.isActive,
      rule_scope: positionRules.ruleScope,
      target_account_id: positionRules.targetAccountId,
    })
    .from(positionRules)
    .where(and(eq(positionRules.userId, userId), eq(positionRules.isActive, true)));
}
