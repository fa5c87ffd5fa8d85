/**
 * Protection that arrives with the price (issue #28): a holding "Protect new holdings" could not
 * protect because it had no price yet waits (`holdings.guard_pending_since`); the first batch
 * that prices its instrument gives it the Price Guard rule, and the user is told: a History row
 * (`PRICE_GUARD`, in-app only, never emailed or counted in the quota), which is also the bell's
 * item and a toast in every tab, and `rules:changed`.
 *
 * Exactly once across instances: the batch owner does it after storing the batch, and each
 * user's holdings are claimed with a conditional write (`UPDATE … WHERE guard_pending_since IS
 * NOT NULL RETURNING`) in the transaction that creates the rules. A second instance's claim
 * waits on the row locks, then finds nothing left to claim.
 */
import type { Exchange } from '@app/common/instruments/types';
import type { TickBatch } from '@app/common/market/tick-batch';
import { firstPriceProtectionMessage, PRICE_GUARD_EXECUTION } from '@app/common/rules/index';
import { and, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Database } from '../db/client.ts';
import { holdings, ruleExecutions } from '../db/schema.ts';
import type { AppDeps } from '../deps.ts';
import type { Change } from '../events/changes.ts';
import { IN_APP_ONLY, presentExecution } from '../executions/history.ts';
import { protectHoldings, type GuardRuleMade } from './protect.ts';

export interface ProtectOnPriceDeps {
  db: Database;
  events: AppDeps['events'];
  log: Logger;
  now: AppDeps['now'];
}

/**
 * Gives the waiting holdings priced by `batch` their Price Guard rules (call it once the batch
 * is stored, on the instance that owns the batches). One look-up in the partial index when
 * none waits, without building the batch's arrays.
 */
export async function protectOnFirstPrice(deps: ProtectOnPriceDeps, batch: TickBatch): Promise<void> {
  // Almost always none waits: one look-up in the partial index, before any array of the batch.
  const [any] = await queryRows<{ one: number }>(
    deps.db,
    sql`select 1 as one from holdings where guard_pending_since is not null limit 1`,
  );
  if (!any) return;
  const priced = batch.quotes.filter((q) => !q.stale && !q.unavailable);
  if (priced.length === 0) return;
  const waiting = await queryRows<{ id: string; user_id: string }>(
    deps.db,
    sql`select h.id, h.user_id from holdings h
        join unnest(${pgArray(priced.map((q) => q.exchange))}::text[], ${pgArray(priced.map((q) => q.symbol))}::text[])
          as b(exchange, symbol) on b.exchange = h.exchange and b.symbol = h.symbol
        where h.guard_pending_since is not null`,
  );
  if (waiting.length === 0) return;
  const byUser = new Map<string, string[]>();
  for (const w of waiting) byUser.set(w.user_id, [...(byUser.get(w.user_id) ?? []), w.id]);
  for (const [userId, ids] of byUser) {
    try {
      await protectUser(deps, userId, ids);
    } catch (err) {
      deps.log.error({ err, userId }, 'protecting holdings on their first price failed');
    }
  }
}

async function protectUser(deps: ProtectOnPriceDeps, userId: string, ids: string[]): Promise<void> {
  const changes = await deps.db.transaction(async (tx): Promise<Change[]> => {
    const claimed = await tx
      .update(holdings)
      .set({ guardPendingSince: null })
      .where(and(inArray(holdings.id, ids), isNotNull(holdings.guardPendingSince)))
      .returning({
        symbol: holdings.symbol,
        exchange: holdings.exchange,
        accountId: holdings.brokerAccountId,
      });
    if (claimed.length === 0) return [];
    const done = await protectHoldings(tx, {
      userId,
      created: claimed.map((h) => ({ ...h, exchange: h.exchange as Exchange })),
      at: deps.now(),
    });
    if (!done || done.made.length === 0) return [];
    const rows = await tx
      .insert(ruleExecutions)
      .values(done.made.map((m) => historyRow(userId, m)))
      .returning();
    return [
      { type: 'rules', userId },
      ...rows.map((row) => ({ type: 'executions' as const, userId, fired: presentExecution(row, null) })),
    ];
  });
  if (changes.length > 0) void deps.events.publish(changes);
}

/** The History row that tells the user: the level set, at the first price. */
function historyRow(userId: string, { rule, price }: GuardRuleMade) {
  const level = Number(rule.computedTriggerPrice);
  return {
    userId,
    symbol: rule.symbol,
    exchange: rule.exchange,
    triggerType: rule.triggerType,
    executionType: PRICE_GUARD_EXECUTION,
    status: IN_APP_ONLY,
    triggerPrice: rule.computedTriggerPrice,
    executionPrice: price.toFixed(4),
    accountId: rule.targetAccountId,
    message: firstPriceProtectionMessage(rule.symbol, price, level),
    overQuota: false,
  };
}
