/**
 * The monthly email quota (spec §3 Alert quota, §6): a Basic user's first 5 triggers in an IST
 * calendar month are emailed; later ones are recorded in-app only, marked over quota.
 */
import type { ApiAlertQuota } from '@app/common/api/rules';
import {
  istMonthStart,
  nextIstMonthStart,
  TIER_LIMITS,
  type SubscriptionTier,
} from '@app/common/rules/index';
import { sql } from 'drizzle-orm';
import { queryRows, type Executor, type Tx } from '../db/client.ts';

/** Triggers this IST month that counted against the quota (emailed, or meant to be). */
async function countedThisMonth(db: Executor, userId: string, at: Date): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from rule_executions
        where user_id = ${userId} and not over_quota and executed_at >= ${istMonthStart(at).toISOString()}::timestamptz`,
  );
  return Number(row?.n ?? 0);
}

export interface QuotaDecision {
  tier: SubscriptionTier;
  overQuota: boolean;
}

/**
 * Inside a trigger's transaction: locks the user's row (so one user's concurrent claims are
 * counted one after another) and says whether this trigger is over the month's quota.
 */
export async function decideQuota(tx: Tx, userId: string, at = new Date()): Promise<QuotaDecision> {
  const [user] = await queryRows<{ subscription_tier: SubscriptionTier }>(
    tx,
    sql`select subscription_tier from users where id = ${userId} for update`,
  );
  const tier = user?.subscription_tier ?? 'basic';
  const limit = TIER_LIMITS[tier].monthlyEmails;
  if (!Number.isFinite(limit)) return { tier, overQuota: false };
  return { tier, overQuota: (await countedThisMonth(tx, userId, at)) >= limit };
}

/** GET /api/alerts/quota. Advanced: `total` and `remaining` are null (unlimited). */
export async function alertQuota(
  db: Executor,
  user: { id: string; subscriptionTier: SubscriptionTier },
  now = new Date(),
): Promise<ApiAlertQuota> {
  const counted = await countedThisMonth(db, user.id, now);
  const limit = TIER_LIMITS[user.subscriptionTier].monthlyEmails;
  const finite = Number.isFinite(limit);
  return {
    used: finite ? Math.min(counted, limit) : counted,
    total: finite ? limit : null,
    remaining: finite ? Math.max(0, limit - counted) : null,
    subscription_tier: user.subscriptionTier,
    resets_at: nextIstMonthStart(now).toISOString(),
  };
}
