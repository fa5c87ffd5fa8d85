/**
 * The user's holdings, flat (`GET /api/holdings`, docs/holdings.md), with the latest quote and
 * active rule counts.
 */
import type { Executor } from '../db/client.ts';
import type { HoldingsCache } from './cache.ts';
import { loadHoldingRows, presentHolding, type PresentedHolding } from './present.ts';

/** Where holdings are listed from: this instance's cache when it has one, else the database. */
export interface HoldingsSource {
  db: Executor;
  holdingsCache?: HoldingsCache;
}

/**
 * The user's holdings (only `accountId`'s when given), presented. Served from this instance's
 * cache (cache.ts) when it has one, with prices from the latest tick batch.
 */
export async function listHoldings(
  { db, holdingsCache: cache }: HoldingsSource,
  { userId, accountId }: { userId: string; accountId?: string },
): Promise<PresentedHolding[]> {
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
export async function holdingsResponseBody(source: HoldingsSource, userId: string): Promise<Buffer> {
  const encode = (list: PresentedHolding[]) => Buffer.from(JSON.stringify({ success: true, data: list }));
  const cache = source.holdingsCache;
  return cache ? cache.listEncoded(userId, encode) : encode(await listHoldings(source, { userId }));
}
