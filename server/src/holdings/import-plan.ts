/**
 * What an upload would change: the file's rows against the target account's holdings (added,
 * changed, removed), and another import account that already holds the same (the same broker
 * account imported twice, e.g. a Kite CSV beside the Console XLSX of the same client ID).
 */
import {
  accountDisplayName,
  duplicateAccountMessage,
  type DuplicateAccountWarning,
  type ImportChanges,
  type PreviewHolding,
  type PreviewRuleRemoval,
} from '@app/common/holdings/upload-preview';
import type { Exchange } from '@app/common/instruments/types';
import { instrumentKey } from '@app/common/market/tick-batch';
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { brokerAccounts, holdings, positionRules } from '../db/schema.ts';
import type { ResolvedRow } from './resolve.ts';

/** A stored holding, as the plan compares it. */
export interface HeldRow extends PreviewHolding {
  id: string;
}

const key = (h: { exchange: Exchange; symbol: string }) => instrumentKey(h.exchange, h.symbol);
/** Buy prices are stored to four decimals: compare them so. */
const price4 = (value: number) => Number(value.toFixed(4));

/** The account's holdings (none for an account still to be created). */
export async function accountHoldings(db: Executor, accountId: string | null): Promise<HeldRow[]> {
  if (!accountId) return [];
  const rows = await db
    .select({
      id: holdings.id,
      symbol: holdings.symbol,
      exchange: holdings.exchange,
      quantity: holdings.quantity,
      averagePrice: holdings.averagePrice,
    })
    .from(holdings)
    .where(eq(holdings.brokerAccountId, accountId))
    .orderBy(holdings.symbol, holdings.exchange);
  return rows.map((r) => ({
    id: r.id,
    symbol: r.symbol,
    exchange: r.exchange,
    quantity: Number(r.quantity),
    average_price: Number(r.averagePrice),
  }));
}

/** The changes that replacing `held` by the (merged) file rows makes. */
export function diffHoldings(held: readonly HeldRow[], rows: readonly ResolvedRow[]): ImportChanges {
  const before = new Map(held.map((h) => [key(h), h]));
  const changes: ImportChanges = { add: [], update: [], remove: [], unchanged: 0 };
  const inFile = new Set<string>();
  for (const row of rows) {
    inFile.add(key(row));
    const to = { quantity: row.quantity, average_price: price4(row.averagePrice) };
    const prior = before.get(key(row));
    if (!prior) {
      changes.add.push({ symbol: row.symbol, exchange: row.exchange, ...to });
    } else if (prior.quantity !== to.quantity || prior.average_price !== to.average_price) {
      const from = { quantity: prior.quantity, average_price: prior.average_price };
      changes.update.push({ symbol: row.symbol, exchange: row.exchange, from, to });
    } else {
      changes.unchanged += 1;
    }
  }
  changes.remove = held
    .filter((h) => !inFile.has(key(h)))
    .map(({ symbol, exchange, quantity, average_price }) => ({ symbol, exchange, quantity, average_price }));
  return changes;
}

/**
 * The user's exit rules that removing `removed` from the account leaves covering nothing, so the
 * upload deletes them (rules/uncovered.ts): a rule on that account, or a rule on all holdings of an
 * instrument no other account holds. The preview names them; the import reports them.
 */
export async function rulesRemovedWith(
  db: Executor,
  query: { userId: string; accountId: string | null; removed: readonly PreviewHolding[] },
): Promise<PreviewRuleRemoval[]> {
  const { userId, accountId, removed } = query;
  if (!accountId || removed.length === 0) return [];
  const symbols = [...new Set(removed.map((h) => h.symbol))];
  const gone = new Set(removed.map(key));
  const rules = await db
    .select({
      id: positionRules.id,
      rule_name: positionRules.ruleName,
      symbol: positionRules.symbol,
      exchange: positionRules.exchange,
      scope: positionRules.ruleScope,
      targetAccountId: positionRules.targetAccountId,
    })
    .from(positionRules)
    .where(and(eq(positionRules.userId, userId), inArray(positionRules.symbol, symbols)))
    .orderBy(positionRules.symbol, positionRules.createdAt);
  const elsewhere = await db
    .select({ symbol: holdings.symbol, exchange: holdings.exchange })
    .from(holdings)
    .where(
      and(
        eq(holdings.userId, userId),
        ne(holdings.brokerAccountId, accountId),
        inArray(holdings.symbol, symbols),
      ),
    );
  const heldElsewhere = new Set(elsewhere.map(key));
  return rules
    .filter(
      (r) =>
        gone.has(key(r)) &&
        (r.scope === 'specific_account' ? r.targetAccountId === accountId : !heldElsewhere.has(key(r))),
    )
    .map(({ id, rule_name, symbol, exchange }) => ({ id, rule_name, symbol, exchange }));
}

/**
 * Another import account of the user (not `exceptId`) holding mostly what the file holds: at least
 * half of the file's rows and half of that account's holdings are the same instrument with the
 * same quantity. Such a file is most likely that account's statement again.
 */
export async function findDuplicateAccount(
  db: Executor,
  query: { userId: string; exceptId: string | null; rows: readonly ResolvedRow[] },
): Promise<DuplicateAccountWarning | null> {
  if (query.rows.length === 0) return null;
  const conditions = [eq(holdings.userId, query.userId), eq(brokerAccounts.brokerType, 'CSV_IMPORT')];
  if (query.exceptId) conditions.push(ne(holdings.brokerAccountId, query.exceptId));
  const held = await db
    .select({
      accountId: holdings.brokerAccountId,
      brokerName: brokerAccounts.brokerName,
      accountLabel: brokerAccounts.accountLabel,
      symbol: holdings.symbol,
      exchange: holdings.exchange,
      quantity: holdings.quantity,
    })
    .from(holdings)
    .innerJoin(brokerAccounts, eq(brokerAccounts.id, holdings.brokerAccountId))
    .where(and(...conditions));
  const fileQuantities = new Map(query.rows.map((r) => [key(r), r.quantity]));
  const tally = new Map<string, { name: string; held: number; same: number }>();
  for (const h of held) {
    const entry = tally.get(h.accountId) ?? {
      name: accountDisplayName(h.brokerName, h.accountLabel),
      held: 0,
      same: 0,
    };
    entry.held += 1;
    if (fileQuantities.get(key(h)) === Number(h.quantity)) entry.same += 1;
    tally.set(h.accountId, entry);
  }
  const [best] = [...tally.entries()]
    .filter(([, t]) => t.same > 0 && t.same * 2 >= query.rows.length && t.same * 2 >= t.held)
    .sort(([, a], [, b]) => b.same - a.same);
  if (!best) return null;
  const [accountId, { name }] = best;
  return { account_id: accountId, account_name: name, message: duplicateAccountMessage(name) };
}
