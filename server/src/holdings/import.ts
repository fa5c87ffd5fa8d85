/**
 * A broker file goes into one broker account in one transaction: the file is the account's
 * current statement, so its rows replace what the account held (new rows added, existing
 * rows updated, rows no longer in the file removed, with the rules left covering nothing). The
 * removals happen only when the request confirms their number, as the preview showed it. New
 * holdings get the Price Guard rule when the user asked for it (rules/protect.ts). Any error
 * changes nothing.
 */
import { accountDisplayName } from '@app/common/holdings/upload-preview';
import type { ApiNewHoldingsProtection } from '@app/common/rules/index';
import type { HoldingsRemovalDeps } from './service.ts';
import { Conflict } from '../http/errors.ts';
import { ensureAccount } from '../accounts/broker-accounts.ts';
import { replaceAccountHoldings } from './replace.ts';
import { mergeDuplicateRows, type ResolvedRow } from './resolve.ts';
import type { ImportTarget } from './target-account.ts';

export interface ImportHoldingsCommand {
  userId: string;
  target: ImportTarget;
  rows: readonly ResolvedRow[];
  /** How many removals the user saw in the preview (required when the upload removes any). */
  confirmRemovals?: number;
  /** Rows of the file left out by the user. */
  skipped: number;
}

export interface ImportSummary {
  broker_account_id: string;
  account_name: string;
  created: number;
  /** Holdings kept with a new quantity or buy price ("changed" in the preview). */
  updated: number;
  /** Holdings the file repeats exactly. */
  unchanged: number;
  removed: number;
  /** The names of the exit rules deleted with the removed holdings, as the preview listed them. */
  rules_removed: string[];
  skipped: number;
  total: number;
  /** What "Protect new holdings" did for the created holdings; null while the setting is off. */
  price_guard: ApiNewHoldingsProtection | null;
}

export async function importHoldings(
  deps: HoldingsRemovalDeps,
  cmd: ImportHoldingsCommand,
): Promise<ImportSummary> {
  const rows = mergeDuplicateRows(cmd.rows);
  const at = deps.now();
  const { summary, rulesChanged } = await deps.db.transaction(async (tx) => {
    const { brokerName, accountLabel } = cmd.target;
    const account = await ensureAccount(tx, {
      userId: cmd.userId,
      brokerName,
      accountLabel,
      brokerType: 'CSV_IMPORT',
    });
    const accountName = accountDisplayName(account.brokerName, account.accountLabel);
    // The file replaces the account's holdings: it will keep exactly these rows.
    const replaced = await replaceAccountHoldings(tx, {
      userId: cmd.userId,
      accountId: account.id,
      accountName,
      rows,
      at,
      uncoveredRules: 'delete',
      check: (changes) => assertRemovalsConfirmed(accountName, changes.remove, cmd.confirmRemovals),
    });
    const summary: ImportSummary = {
      broker_account_id: account.id,
      account_name: accountName,
      created: replaced.created,
      updated: replaced.changes.update.length,
      unchanged: replaced.changes.unchanged,
      removed: replaced.removed,
      rules_removed: replaced.rules,
      skipped: cmd.skipped,
      total: rows.length,
      price_guard: replaced.priceGuard,
    };
    return { summary, rulesChanged: replaced.rulesChanged };
  });
  void deps.events.publish([
    { type: 'holdings', userId: cmd.userId },
    ...(rulesChanged ? [{ type: 'rules' as const, userId: cmd.userId }] : []),
  ]);
  return summary;
}

/**
 * Refuses (409) an upload that would remove holdings the user has not confirmed: `confirmed` must
 * be the number of removals, as the preview listed them (it differs when the account changed since).
 */
function assertRemovalsConfirmed(
  accountName: string,
  removals: readonly { symbol: string }[],
  confirmed: number | undefined,
): void {
  if (removals.length === 0 || confirmed === removals.length) return;
  const listed = removals.slice(0, 5).map((r) => r.symbol);
  if (removals.length > listed.length) listed.push(`and ${removals.length - listed.length} more`);
  const holdingsWord = removals.length === 1 ? 'holding' : 'holdings';
  throw new Conflict(
    `This upload would remove ${removals.length} ${holdingsWord} from ${accountName} (${listed.join(', ')}) ` +
      `that the file no longer lists. Preview the upload and confirm the removals to go ahead.`,
  );
}
