/** Tier limits on rules (spec §6): rules may cover at most 50 (Basic) or 200 (Advanced) holdings. */
import { instrumentKey } from '@app/common/market/tick-batch';
import { holdingsLimitMessage, TIER_LIMITS, type SubscriptionTier } from '@app/common/rules/index';
import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../db/client.ts';
import { Forbidden } from '../http/errors.ts';

/**
 * The instruments (`NSE:ITC`) the user's active rules, and rules waiting to re-arm, cover: what
 * the tier limit counts.
 */
export async function coveredInstruments(tx: Tx, userId: string): Promise<Set<string>> {
  const rows = await queryRows<{ symbol: string; exchange: string }>(
    tx,
    sql`select distinct symbol, exchange from position_rules
        where user_id = ${userId} and (is_active or rearm_at is not null)`,
  );
  return new Set(rows.map((r) => instrumentKey(r.exchange, r.symbol)));
}

/**
 * Refuses (403) when rules on `adding` instruments would make the user's active rules cover
 * more distinct holdings than the tier allows. Call after lockUserTier in the same transaction.
 */
export async function assertHoldingsLimit(
  tx: Tx,
  {
    userId,
    tier,
    adding,
  }: { userId: string; tier: SubscriptionTier; adding: ReadonlyArray<{ symbol: string; exchange: string }> },
): Promise<void> {
  const covered = await coveredInstruments(tx, userId);
  const before = covered.size;
  for (const i of adding) covered.add(instrumentKey(i.exchange, i.symbol));
  // More rules on holdings already covered are fine, even for a user above a lowered limit.
  if (covered.size > before && covered.size > TIER_LIMITS[tier].holdings) {
    throw new Forbidden(holdingsLimitMessage(tier));
  }
}
