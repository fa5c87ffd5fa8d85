/** The user's holdings, flat (spec §3 Holding), with the latest quote and active rule counts. */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { positionRules } from '../db/schema.ts';
import { attachedHoldingsCache } from './cache.ts';
import { loadHoldingRows, presentHolding, type PresentedHolding } from './present.ts';

export { presentHolding, type PresentedHolding } from './present.ts';

/**
 * The user's holdings (only `accountId`'s when given), presented. Served from this instance's
 * cache (cache.ts) when one is attached to `db`, with prices from the latest tick batch.
 */
export async function listHoldings(
  db: Executor,
  userId: string,
  accountId?: string,
): Promise<PresentedHolding[]> {
  const cache = attachedHoldingsCache(db);
  let all: PresentedHolding[];
  if (cache) all = await cache.list(userId);
  else {
    const { bases, quotes } = await loadHoldingRows(db, userId);
    all = bases.map((base, i) => presentHolding(base, quotes[i] ?? null));
  }
  return accountId ? all.filter((h) => h.broker_account_id === accountId) : all;
}

/**
 * GET /api/holdings's whole answer, `{success:true, data:[…]}` as UTF-8 JSON: encoded once per
 * tick batch when cached, so a busy instance does not stringify 100 KB per request.
 */
export async function holdingsResponseBody(db: Executor, userId: string): Promise<Buffer> {
  const encode = (list: PresentedHolding[]) => Buffer.from(JSON.stringify({ success: true, data: list }));
  const cache = attachedHoldingsCache(db);
  return cache ? cache.listEncoded(userId, encode) : encode(await listHoldings(db, userId));
}

/** Active rules per holding-account, for the dashboard's Active Rules count. */
export async function countActiveRules(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(positionRules)
    .where(and(eq(positionRules.userId, userId), eq(positionRules.isActive, true)));
  return row?.n ?? 0;
}
