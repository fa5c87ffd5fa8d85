/** Storing the actions read from a `bc` file, and reading them back for the API. */
import type { ApiCorporateAction } from '@app/common/api/corporate-actions';
import { actionTerms, type ParsedCorporateAction } from '@app/common/corporate-actions/index';
import type { Exchange } from '@app/common/instruments/types';
import { and, asc, eq, gte, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { corporateActions, holdings, positionRules } from '../db/schema.ts';

export type CorporateActionRow = typeof corporateActions.$inferSelect;

export interface StoreResult {
  /** New actions (a row already known for the instrument, ex-date and kind is kept as it was). */
  added: number;
  /** Of the new ones, bonuses and splits whose ex-date is today or past: the job applies them at once. */
  due: number;
}

/**
 * Inserts the actions not already known. A known action is never rewritten: one that has been
 * applied must not change under the adjustments recorded with it.
 */
export async function storeCorporateActions(
  db: Executor,
  { actions, source, today }: { actions: readonly ParsedCorporateAction[]; source: string; today: string },
): Promise<StoreResult> {
  if (actions.length === 0) return { added: 0, due: 0 };
  const rows = await db
    .insert(corporateActions)
    .values(
      actions.map((a) => ({
        exchange: a.exchange,
        symbol: a.symbol,
        security: a.security,
        kind: a.kind,
        ratio: a.ratio === null ? null : String(a.ratio),
        purpose: a.purpose,
        exDate: a.exDate,
        recordDate: a.recordDate,
        source,
      })),
    )
    .onConflictDoNothing()
    .returning({ exDate: corporateActions.exDate, ratio: corporateActions.ratio });
  return { added: rows.length, due: rows.filter((r) => r.ratio !== null && r.exDate <= today).length };
}

export function presentCorporateAction(row: CorporateActionRow): ApiCorporateAction {
  return {
    id: row.id,
    exchange: row.exchange,
    symbol: row.symbol,
    security: row.security,
    kind: row.kind,
    ratio: row.ratio === null ? null : Number(row.ratio),
    purpose: row.purpose,
    terms: actionTerms({ kind: row.kind, purpose: row.purpose, ex_date: row.exDate }),
    ex_date: row.exDate,
    record_date: row.recordDate,
    applied_at: row.appliedAt?.toISOString() ?? null,
  };
}

/** How far back the caller's own list reaches: recent adjustments stay explained for a month. */
export const RECENT_DAYS = 30;
/** Rows in one answer: one instrument has a handful a year; a portfolio's list is capped. */
export const LIST_LIMIT = 500;

export interface ActionFilter {
  userId: string;
  symbol?: string;
  exchange?: Exchange;
  today: string;
}

/**
 * One instrument's actions (public exchange data), or, without a symbol, those on the
 * instruments the user holds or has rules on with an ex-date from RECENT_DAYS back, or applied
 * within RECENT_DAYS (a late file). Ex-date order.
 */
export async function listCorporateActions(db: Executor, f: ActionFilter): Promise<ApiCorporateAction[]> {
  let where: SQL | undefined;
  if (f.symbol) {
    where = and(eq(corporateActions.symbol, f.symbol), eq(corporateActions.exchange, f.exchange ?? 'NSE'));
  } else {
    const held = db
      .select({ key: sql`${holdings.exchange} || ':' || ${holdings.symbol}` })
      .from(holdings)
      .where(eq(holdings.userId, f.userId));
    const ruled = db
      .select({ key: sql`${positionRules.exchange} || ':' || ${positionRules.symbol}` })
      .from(positionRules)
      .where(eq(positionRules.userId, f.userId));
    const since = new Date(Date.parse(`${f.today}T00:00:00Z`) - RECENT_DAYS * 86_400_000)
      .toISOString()
      .slice(0, 10);
    where = and(
      or(
        gte(corporateActions.exDate, since),
        sql`${corporateActions.appliedAt} >= now() - ${RECENT_DAYS} * interval '1 day'`,
      ),
      f.exchange ? eq(corporateActions.exchange, f.exchange) : undefined,
      or(
        inArray(sql`${corporateActions.exchange} || ':' || ${corporateActions.symbol}`, held),
        inArray(sql`${corporateActions.exchange} || ':' || ${corporateActions.symbol}`, ruled),
      ),
    );
  }
  const rows = await db
    .select()
    .from(corporateActions)
    .where(where)
    .orderBy(asc(corporateActions.exDate), asc(corporateActions.symbol), asc(corporateActions.kind))
    .limit(LIST_LIMIT);
  return rows.map(presentCorporateAction);
}
