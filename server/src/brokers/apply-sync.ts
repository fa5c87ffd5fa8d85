/**
 * A broker's holdings applied to its connected account (docs/holdings.md#connect-a-broker): each
 * holding resolved through the symbol master (its ISIN first, on the broker's exchange or NSE
 * then BSE; else its symbol, as a file's row is, series suffix and all), then the account made to
 * hold exactly those (holdings/replace.ts) without a confirmation: the broker is the source of
 * truth. Rules on a holding that is gone are kept and paused. A sync that changed something (or
 * the first) is told in History and the bell.
 */
import {
  BROKER_NAMES,
  BROKER_SYNC_EXECUTION,
  BROKER_TEXTS,
  type ApiBrokerSync,
  type BrokerId,
} from '@app/common/api/brokers';
import { accountDisplayName } from '@app/common/holdings/upload-preview';
import { EXCHANGES } from '@app/common/instruments/types';
import { eq, sql } from 'drizzle-orm';
import type { AppDeps } from '../deps.ts';
import { brokerAccounts, ruleExecutions } from '../db/schema.ts';
import type { Change } from '../events/changes.ts';
import { IN_APP_ONLY, presentExecution } from '../executions/history.ts';
import { replaceAccountHoldings } from '../holdings/replace.ts';
import { mergeDuplicateRows, resolveImportRows, type ResolvedRow } from '../holdings/resolve.ts';
import type { InstrumentMaster } from '../instruments/master.ts';
import type { BrokerHolding } from './connector.ts';

export type SyncDeps = Pick<AppDeps, 'db' | 'events' | 'instruments' | 'now'>;

/** The broker's holdings as rows of the account: by ISIN first, else by symbol; empty lots dropped. */
export function resolveBrokerHoldings(
  master: InstrumentMaster,
  held: readonly BrokerHolding[],
): ResolvedRow[] {
  const rows: ResolvedRow[] = [];
  held.forEach((h, i) => {
    if (h.quantity <= 0) return;
    const base = { line: i + 1, quantity: h.quantity, averagePrice: h.averagePrice };
    const exchanges = h.exchange ? [h.exchange] : EXCHANGES;
    const isin = h.isin?.toUpperCase();
    const instrument = isin
      ? exchanges.map((e) => master.findByIsin(isin, e)).find((found) => found !== undefined)
      : undefined;
    if (instrument) {
      rows.push({
        ...base,
        symbol: instrument.symbol,
        exchange: instrument.exchange,
        isin,
        companyName: instrument.name,
        known: true,
      });
      return;
    }
    // Not found by ISIN: by the broker's symbol, as a file's row (an unknown one is kept as given).
    const input = {
      ...base,
      symbol: h.brokerSymbol,
      exchange: h.exchange ?? 'NSE',
      exchangeFromFile: h.exchange !== null,
    };
    rows.push(...resolveImportRows(master, [isin ? { ...input, isin } : input]).rows);
  });
  return mergeDuplicateRows(rows.map(({ suggestions: _s, ...row }) => row));
}

export interface ApplySyncCommand {
  userId: string;
  accountId: string;
  brokerId: BrokerId;
  accountLabel: string;
  /** True on the account's first sync: History tells it even when it changed nothing. */
  firstSync: boolean;
  holdings: readonly BrokerHolding[];
}

/** Applies a sync in one transaction (any error changes nothing), then publishes what changed. */
export async function applyBrokerSync(deps: SyncDeps, cmd: ApplySyncCommand): Promise<ApiBrokerSync> {
  const rows = resolveBrokerHoldings(deps.instruments, cmd.holdings);
  const at = deps.now();
  const name = BROKER_NAMES[cmd.brokerId];
  const { result, changes } = await deps.db.transaction(async (tx) => {
    const replaced = await replaceAccountHoldings(tx, {
      userId: cmd.userId,
      accountId: cmd.accountId,
      accountName: accountDisplayName(name, cmd.accountLabel),
      rows,
      at,
      uncoveredRules: { pauseAtBroker: name },
    });
    const counts = {
      added: replaced.created,
      changed: replaced.changes.update.length,
      removed: replaced.removed,
    };
    await tx
      .update(brokerAccounts)
      .set({
        lastSyncedAt: at,
        lastError: null,
        accountStatus: 'CONNECTED',
        statusChangedAt: sql`case when ${brokerAccounts.accountStatus} = 'CONNECTED' then ${brokerAccounts.statusChangedAt} else ${at.toISOString()}::timestamptz end`,
        updatedAt: at,
      })
      .where(eq(brokerAccounts.id, cmd.accountId));
    const changed = counts.added + counts.changed + counts.removed > 0;
    const changes: Change[] = [];
    if (changed || cmd.firstSync) {
      const [row] = await tx
        .insert(ruleExecutions)
        .values({
          userId: cmd.userId,
          symbol: '',
          exchange: 'NSE',
          triggerType: BROKER_SYNC_EXECUTION,
          executionType: BROKER_SYNC_EXECUTION,
          status: IN_APP_ONLY,
          triggerPrice: '0',
          executionPrice: '0',
          accountId: cmd.accountId,
          message: BROKER_TEXTS.syncSummary(name, counts),
          overQuota: false,
        })
        .returning();
      changes.push({ type: 'executions', userId: cmd.userId, fired: presentExecution(row!, null) });
    }
    if (changed) changes.push({ type: 'holdings', userId: cmd.userId });
    if (replaced.rulesChanged) changes.push({ type: 'rules', userId: cmd.userId });
    const result: ApiBrokerSync = {
      broker_account_id: cmd.accountId,
      ...counts,
      rules_paused: replaced.rules,
      synced_at: at.toISOString(),
    };
    return { result, changes };
  });
  if (changes.length > 0) void deps.events.publish(changes);
  return result;
}
