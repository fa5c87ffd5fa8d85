/**
 * A broker file goes into one broker account in one transaction: the file is the account's
 * current statement, so its rows replace what the account held (new rows added, existing
 * rows updated, rows no longer in the file removed, with the rules left covering nothing). Any
 * error changes nothing.
 */
import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { HoldingsRemovalDeps } from './service.ts';
import { holdings } from '../db/schema.ts';
import { announceRulesChanged } from '../rules/changes.ts';
import { deleteUncoveredRules } from '../rules/uncovered.ts';
import { ensureAccount } from './accounts.ts';
import { assertHoldingsRoom } from './limits.ts';
import { mergeDuplicateRows, type ResolvedRow } from './resolve.ts';

export interface ImportHoldingsCommand {
  userId: string;
  brokerName: string;
  accountLabel: string;
  rows: readonly ResolvedRow[];
}

export interface ImportSummary {
  broker_account_id: string;
  account_name: string;
  created: number;
  updated: number;
  removed: number;
  total: number;
}

export async function importHoldings(
  deps: HoldingsRemovalDeps,
  cmd: ImportHoldingsCommand,
): Promise<ImportSummary> {
  const rows = mergeDuplicateRows(cmd.rows);
  const { summary, rulesDeleted } = await deps.db.transaction(async (tx) => {
    const account = await ensureAccount(tx, cmd.userId, cmd.brokerName, cmd.accountLabel, 'CSV_IMPORT');
    const accountName = [account.brokerName, account.accountLabel].filter(Boolean).join(' · ');
    // The file replaces the account's holdings: it will keep exactly these rows.
    await assertHoldingsRoom(tx, {
      userId: cmd.userId,
      accountId: account.id,
      accountName,
      accountAfter: rows.length,
    });
    const existing = await tx
      .select({ symbol: holdings.symbol, exchange: holdings.exchange })
      .from(holdings)
      .where(eq(holdings.brokerAccountId, account.id));
    const had = new Set(existing.map((h) => `${h.exchange}:${h.symbol}`));
    const upserted = await tx
      .insert(holdings)
      .values(
        rows.map((r) => ({
          userId: cmd.userId,
          brokerAccountId: account.id,
          symbol: r.symbol,
          exchange: r.exchange,
          isin: r.isin || null,
          quantity: String(r.quantity),
          averagePrice: r.averagePrice.toFixed(4),
        })),
      )
      .onConflictDoUpdate({
        target: [holdings.userId, holdings.brokerAccountId, holdings.symbol, holdings.exchange],
        set: {
          quantity: sql`excluded.quantity`,
          averagePrice: sql`excluded.average_price`,
          isin: sql`coalesce(excluded.isin, ${holdings.isin})`,
          updatedAt: sql`now()`,
        },
      })
      .returning({ id: holdings.id });
    const removed = await tx
      .delete(holdings)
      .where(
        and(
          eq(holdings.brokerAccountId, account.id),
          notInArray(
            holdings.id,
            upserted.map((u) => u.id),
          ),
        ),
      )
      .returning({ id: holdings.id });
    const uncovered = removed.length > 0 ? await deleteUncoveredRules(tx, cmd.userId) : [];
    const created = rows.filter((r) => !had.has(`${r.exchange}:${r.symbol}`)).length;
    const summary: ImportSummary = {
      broker_account_id: account.id,
      account_name: accountName,
      created,
      updated: rows.length - created,
      removed: removed.length,
      total: rows.length,
    };
    return { summary, rulesDeleted: uncovered.length };
  });
  deps.events.emit('holdings:changed', cmd.userId);
  if (rulesDeleted > 0) announceRulesChanged(deps, cmd.userId);
  return summary;
}
