/**
 * "The account's holdings become exactly these rows", inside the caller's transaction: the one
 * plan both a broker file upload (holdings/import.ts) and a broker sync (brokers/apply-sync.ts)
 * carry out. New rows are added, existing ones updated, the rest removed; new holdings get the
 * Price Guard rule when the user asked for it (rules/protect.ts). The rules a removal leaves
 * covering nothing are deleted (an upload: the user confirmed the removals) or kept and paused (a
 * sync: the broker is the source of truth and the investor did not look at a preview).
 */
import type { ImportChanges } from '@app/common/holdings/upload-preview';
import type { ApiNewHoldingsProtection } from '@app/common/rules/index';
import { instrumentKey } from '@app/common/market/tick-batch';
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { holdings, positionRules } from '../db/schema.ts';
import { protectNewHoldings } from '../rules/protect.ts';
import { deleteUncoveredRules } from '../rules/uncovered.ts';
import { accountHoldings, diffHoldings, rulesRemovedWith } from './import-plan.ts';
import { assertHoldingsRoom } from './limits.ts';
import type { ResolvedRow } from './resolve.ts';

export interface ReplaceHoldingsCommand {
  userId: string;
  accountId: string;
  /** The account as the user sees it, for the limit's message. */
  accountName: string;
  /** The account's holdings from now on, one row per instrument (mergeDuplicateRows). */
  rows: readonly ResolvedRow[];
  at: Date;
  /**
   * What happens to the rules a removal leaves covering nothing: deleted (an upload), or paused and
   * kept, marked with the broker they were sold at (a sync).
   */
  uncoveredRules: 'delete' | { pauseAtBroker: string };
  /** Called with the plan before anything is written: it may refuse (throw), changing nothing. */
  check?: (changes: ImportChanges) => void;
}

export interface ReplacedHoldings {
  changes: ImportChanges;
  created: number;
  removed: number;
  /** The names of the rules deleted or paused with the removed holdings. */
  rules: string[];
  /** What "Protect new holdings" did for the created holdings; null while the setting is off. */
  priceGuard: ApiNewHoldingsProtection | null;
  /** True when a rule was deleted, paused or created: the caller publishes `rules`. */
  rulesChanged: boolean;
}

/** Makes the account hold exactly `cmd.rows`, in `tx` (see the file's comment). */
export async function replaceAccountHoldings(tx: Tx, cmd: ReplaceHoldingsCommand): Promise<ReplacedHoldings> {
  const { userId, accountId, rows, at } = cmd;
  await assertHoldingsRoom(tx, {
    userId,
    accountId,
    accountName: cmd.accountName,
    accountAfter: rows.length,
  });
  const existing = await accountHoldings(tx, accountId);
  const changes = diffHoldings(existing, rows);
  cmd.check?.(changes);
  const rulesGoing = await rulesRemovedWith(tx, { userId, accountId, removed: changes.remove });
  const had = new Set(existing.map((h) => instrumentKey(h.exchange, h.symbol)));
  const upserted =
    rows.length === 0
      ? []
      : await tx
          .insert(holdings)
          .values(
            rows.map((r) => ({
              userId,
              brokerAccountId: accountId,
              symbol: r.symbol,
              exchange: r.exchange,
              isin: r.isin || null,
              quantity: String(r.quantity),
              averagePrice: r.averagePrice.toFixed(4),
              lotSetAt: at,
            })),
          )
          .onConflictDoUpdate({
            target: [holdings.userId, holdings.brokerAccountId, holdings.symbol, holdings.exchange],
            set: {
              quantity: sql`excluded.quantity`,
              averagePrice: sql`excluded.average_price`,
              lotSetAt: sql`excluded.lot_set_at`,
              isin: sql`coalesce(excluded.isin, ${holdings.isin})`,
              updatedAt: sql`now()`,
            },
          })
          .returning({ id: holdings.id });
  const kept = upserted.map((u) => u.id);
  const removed = await tx
    .delete(holdings)
    .where(
      and(
        eq(holdings.brokerAccountId, accountId),
        kept.length > 0 ? notInArray(holdings.id, kept) : undefined,
      ),
    )
    .returning({ id: holdings.id });
  const settled =
    removed.length > 0 ? await settleUncoveredRules(tx, cmd, rulesGoing) : { names: [], touched: 0 };
  const added = rows.filter((r) => !had.has(instrumentKey(r.exchange, r.symbol)));
  const priceGuard = await protectNewHoldings(tx, {
    userId,
    created: added.map((r) => ({ symbol: r.symbol, exchange: r.exchange, accountId })),
    at,
  });
  return {
    changes,
    created: added.length,
    removed: removed.length,
    rules: settled.names,
    priceGuard,
    rulesChanged: settled.touched > 0 || (priceGuard?.protected ?? 0) > 0,
  };
}

/**
 * Deletes (an upload) or pauses (a sync) the rules the removals leave covering nothing: the names
 * of `going` among them, and how many rules changed in all.
 */
async function settleUncoveredRules(
  tx: Tx,
  cmd: ReplaceHoldingsCommand,
  going: readonly { id: string; rule_name: string }[],
): Promise<{ names: string[]; touched: number }> {
  if (cmd.uncoveredRules === 'delete') {
    const deleted = new Set(await deleteUncoveredRules(tx, cmd.userId));
    return { names: going.filter((r) => deleted.has(r.id)).map((r) => r.rule_name), touched: deleted.size };
  }
  if (going.length === 0) return { names: [], touched: 0 };
  const paused = await tx
    .update(positionRules)
    .set({ isActive: false, pausedAtBroker: cmd.uncoveredRules.pauseAtBroker, updatedAt: new Date() })
    .where(
      and(
        eq(positionRules.userId, cmd.userId),
        inArray(
          positionRules.id,
          going.map((r) => r.id),
        ),
      ),
    )
    .returning({ id: positionRules.id });
  const ids = new Set(paused.map((r) => r.id));
  return { names: going.filter((r) => ids.has(r.id)).map((r) => r.rule_name), touched: ids.size };
}
