/**
 * The user's data as one JSON document (GET /api/users/me/export): the account and its
 * settings, notification endpoints, broker accounts with their holdings, rules, price alerts
 * and History. Every table is read by the user's id only. Fields are named as the database
 * names them; secrets are left out (a Google subject, token versions, verification token hashes;
 * refresh tokens are not exported at all).
 */
import { asc, eq, getTableColumns } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client.ts';
import {
  brokerAccounts,
  holdings,
  notificationEndpoints,
  positionRules,
  priceAlerts,
  ruleExecutions,
  users,
} from '../db/schema.ts';
import { NotFound } from '../http/errors.ts';

/** Columns never exported: how sign-in and verification are checked, not the user's data. */
const SECRET_COLUMNS = new Set(['google_sub', 'token_version', 'token_hash', 'token_expires_at']);

type Row = Record<string, unknown>;

/** A table's exportable columns, keyed by their database names (`average_price`). */
function exportColumns(table: PgTable): Record<string, PgColumn> {
  const picked: Record<string, PgColumn> = {};
  for (const column of Object.values(getTableColumns(table)) as PgColumn[])
    if (!SECRET_COLUMNS.has(column.name)) picked[column.name] = column;
  return picked;
}

/** The user's rows of a table that has `user_id`, oldest first. */
async function ownRows(
  db: Executor,
  table: PgTable & { userId: PgColumn },
  userId: string,
  order: PgColumn,
): Promise<Row[]> {
  return db.select(exportColumns(table)).from(table).where(eq(table.userId, userId)).orderBy(asc(order));
}

export interface AccountExport {
  exported_at: string;
  account: Row;
  notification_endpoints: Row[];
  broker_accounts: Row[];
  position_rules: Row[];
  price_alerts: Row[];
  history: Row[];
}

/** Everything the user `userId` holds, for the export file. NotFound when the user is gone. */
export async function exportAccountData(
  db: Executor,
  { userId, now = new Date() }: { userId: string; now?: Date },
): Promise<AccountExport> {
  const [account] = await db.select(exportColumns(users)).from(users).where(eq(users.id, userId));
  if (!account) throw new NotFound('User not found');
  const [endpoints, accounts, held, rules, alerts, history] = await Promise.all([
    ownRows(db, notificationEndpoints, userId, notificationEndpoints.createdAt),
    ownRows(db, brokerAccounts, userId, brokerAccounts.createdAt),
    ownRows(db, holdings, userId, holdings.createdAt),
    ownRows(db, positionRules, userId, positionRules.createdAt),
    ownRows(db, priceAlerts, userId, priceAlerts.createdAt),
    ownRows(db, ruleExecutions, userId, ruleExecutions.executedAt),
  ]);
  return {
    exported_at: now.toISOString(),
    account,
    notification_endpoints: endpoints,
    broker_accounts: accounts.map((a) => ({
      ...a,
      holdings: held.filter((h) => h.broker_account_id === a.id),
    })),
    position_rules: rules,
    price_alerts: alerts,
    history,
  };
}
