/**
 * The monthly email quota (docs/exit-rules.md#one-stock-one-alert-notices-and-the-quota): a Basic user's first 5 alerts in an IST
 * calendar month are emailed; later ones are recorded in-app only, marked over quota. It counts
 * notices, not rules (the rules of one stock that fire together are one notice: issue #28), and
 * never holds back a stop loss: a protective notice is emailed and counted even past the limit.
 */
import type { ApiAlertQuota } from '@app/common/api/rules';
import {
  istMonthStart,
  nextIstMonthStart,
  TIER_LIMITS,
  type SubscriptionTier,
} from '@app/common/rules/index';
import { sql, type SQL } from 'drizzle-orm';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Executor, type Tx } from '../db/client.ts';
import { QUOTA_EXECUTION_TYPES } from '../notifications/kinds.ts';

/**
 * The executions the quota counts, by an allow-list of alert kinds (notifications/kinds.ts):
 * alerts, once per notice (its lead, or a row from before notices). Corporate-action
 * adjustments, re-armings, digests and tests are notices of other kinds and never count.
 */
export const COUNTS_TOWARD_QUOTA = sql.raw(
  `execution_type in (${QUOTA_EXECUTION_TYPES.map((t) => `'${t}'`).join(', ')}) and (notice_id is null or notice_id = id)`,
);

/**
 * The counted executions of `e`'s user in `e`'s IST month up to and including `e` (an alert
 * email says when it used the month's last one): a scalar subquery on the alias `e`.
 */
export function countedThroughSql(e: string): SQL {
  const x = sql.raw(e);
  return sql`(select count(*)::int from rule_executions c
    where c.user_id = ${x}.user_id and not c.over_quota and ${COUNTS_TOWARD_QUOTA}
      and c.executed_at <= ${x}.executed_at
      and c.executed_at >= date_trunc('month', ${x}.executed_at at time zone 'Asia/Kolkata') at time zone 'Asia/Kolkata')`;
}

/** Triggers this IST month that counted against the quota (emailed, or meant to be). */
async function countedThisMonth(db: Executor, userId: string, at: Date): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from rule_executions
        where user_id = ${userId} and not over_quota and ${COUNTS_TOWARD_QUOTA} and executed_at >= ${istMonthStart(at).toISOString()}::timestamptz`,
  );
  return Number(row?.n ?? 0);
}

export interface QuotaDecision {
  tier: SubscriptionTier;
  overQuota: boolean;
}

/**
 * Inside a chunk of triggers' transaction, before anything of theirs is claimed: locks the users'
 * rows in id order (every writer takes a user's row before their rules, and in one order, so
 * chunks and edits never deadlock; one user's triggers are counted one after another) and
 * answers each user's tier.
 */
export async function lockQuotaUsers(
  tx: Tx,
  userIds: Iterable<string>,
): Promise<Map<string, SubscriptionTier>> {
  const ids = [...new Set(userIds)].sort();
  const rows = await queryRows<{ id: string; subscription_tier: SubscriptionTier }>(
    tx,
    sql`select id, subscription_tier from users where id = any(${pgArray(ids)}::uuid[]) order by id for update`,
  );
  return new Map(rows.map((r) => [r.id, r.subscription_tier]));
}

/** The users of `tiers` whose tier has a monthly email limit (their month is counted). */
export function limitedUsers(tiers: ReadonlyMap<string, SubscriptionTier>): string[] {
  return [...tiers].filter(([, tier]) => Number.isFinite(TIER_LIMITS[tier].monthlyEmails)).map(([id]) => id);
}

/**
 * The month's counted triggers of these users (`user_id`, `n`), for a statement run after
 * lockQuotaUsers locked them, so nothing of theirs is committed meanwhile.
 */
export function monthCountsSql(userIds: readonly string[], at = new Date()): SQL {
  return sql`select user_id, count(*)::int as n from rule_executions
    where user_id = any(${pgArray(userIds)}::uuid[]) and not over_quota and ${COUNTS_TOWARD_QUOTA}
      and executed_at >= ${istMonthStart(at).toISOString()}::timestamptz
    group by user_id`;
}

/**
 * The quota of a chunk's notices, given in crossing order: from each user's count of the month
 * (monthCountsSql), each notice in order counts against it, exactly as one transaction per
 * notice would have decided them one by one. A protective notice (a stop loss) is never over
 * quota, but counts.
 */
export function decideQuotas(
  triggers: ReadonlyArray<{ userId: string; protective: boolean }>,
  tiers: ReadonlyMap<string, SubscriptionTier>,
  monthCounts: ReadonlyMap<string, number>,
): QuotaDecision[] {
  const counted = new Map(monthCounts);
  return triggers.map(({ userId, protective }) => {
    const tier = tiers.get(userId) ?? 'basic';
    const limit = TIER_LIMITS[tier].monthlyEmails;
    if (!Number.isFinite(limit)) return { tier, overQuota: false };
    const n = counted.get(userId) ?? 0;
    if (n >= limit && !protective) return { tier, overQuota: true };
    counted.set(userId, n + 1);
    return { tier, overQuota: false };
  });
}

/** GET /api/alerts/quota. Advanced: `total` and `remaining` are null (unlimited). */
export async function alertQuota(
  db: Executor,
  { user, now = new Date() }: { user: { id: string; subscriptionTier: SubscriptionTier }; now?: Date },
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
