/**
 * Rules follow their holdings: once a user no longer holds what a position rule covers, the rule
 * goes (it would keep alerting and count toward the tier limit). Price alerts (POST /api/alerts)
 * live in their own table and are not touched: they may watch anything, held or not.
 */
import { and, eq, isNull, notExists, or, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { holdings, positionRules } from '../db/schema.ts';

/**
 * Deletes, in `tx`, the user's position rules that cover no holding any more: an all_holdings
 * rule whose instrument the user holds in no account, a specific_account rule whose account no
 * longer holds it. Their executions stay in History (rule_id becomes null). Returns their ids;
 * the caller announces `rules:changed` after the commit when any went.
 */
export async function deleteUncoveredRules(tx: Tx, userId: string): Promise<string[]> {
  const covering = tx
    .select({ one: sql`1` })
    .from(holdings)
    .where(
      and(
        eq(holdings.userId, positionRules.userId),
        eq(holdings.symbol, positionRules.symbol),
        eq(holdings.exchange, positionRules.exchange),
        or(
          eq(positionRules.ruleScope, 'all_holdings'),
          eq(holdings.brokerAccountId, positionRules.targetAccountId),
        ),
      ),
    );
  const removed = await tx
    .delete(positionRules)
    // A rule a broker sync paused is kept, said so on the rule, until the investor decides.
    .where(and(eq(positionRules.userId, userId), isNull(positionRules.pausedAtBroker), notExists(covering)))
    .returning({ id: positionRules.id });
  return removed.map((r) => r.id);
}
