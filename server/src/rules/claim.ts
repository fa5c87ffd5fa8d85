/**
 * Exactly-once firing (ARCHITECTURE §6). One transaction per crossing: claim the rule or price
 * alert (`UPDATE … WHERE id AND is_active AND <version> RETURNING`; no row means another
 * instance, or an edit, got there first), decide the email quota under the user's row lock,
 * record the execution and one outbox row per verified email endpoint.
 */
import { crossingMessage, overQuotaNote } from '@app/common/rules/index';
import { and, eq, sql } from 'drizzle-orm';
import { queryRows, type Database, type Tx } from '../db/client.ts';
import { alertDeliveries, notificationEndpoints, ruleExecutions } from '../db/schema.ts';
import { decideQuota } from '../alerts/quota.ts';
import type { ExecutionRow } from '../alerts/executions.ts';
import { versionSql } from './load.ts';
import type { Crossing } from './rule-index.ts';

/** Recorded, but not emailed: over the monthly quota, or no verified email endpoint. */
export const IN_APP_ONLY = 'IN_APP_ONLY';

export interface ClaimedTrigger {
  userId: string;
  execution: ExecutionRow;
  deliveryIds: string[];
}

/** Claims the rule or alert (with the account it targets); null when gone, inactive or edited since. */
async function claimSource(tx: Tx, c: Crossing): Promise<{ accountId: string | null } | null> {
  const e = c.entry;
  const rows =
    e.kind === 'rule'
      ? await queryRows<{ target_account_id: string | null }>(
          tx,
          sql`update position_rules
              set is_active = false, execution_count = execution_count + 1, last_triggered_at = now(),
                  updated_at = now(), peak_price = coalesce(${e.peak === null ? null : String(e.peak)}::numeric, peak_price),
                  computed_trigger_price = ${String(e.price)}::numeric
              where id = ${e.id} and is_active and ${versionSql()} = ${String(e.version)}::numeric
              returning target_account_id`,
        )
      : await queryRows<{ target_account_id: string | null }>(
          tx,
          sql`update price_alerts set is_active = false, triggered_at = now(), updated_at = now()
              where id = ${e.id} and is_active and ${versionSql()} = ${String(e.version)}::numeric
              returning null::uuid as target_account_id`,
        );
  return rows[0] ? { accountId: rows[0].target_account_id } : null;
}

/** Claims one crossing; null when it was already claimed (or changed) elsewhere. */
export async function claimCrossing(db: Database, c: Crossing): Promise<ClaimedTrigger | null> {
  const e = c.entry;
  return db.transaction(async (tx) => {
    const claimed = await claimSource(tx, c);
    if (!claimed) return null;
    const quota = await decideQuota(tx, e.userId);
    const endpoints = quota.overQuota
      ? []
      : await tx
          .select({ id: notificationEndpoints.id, value: notificationEndpoints.value })
          .from(notificationEndpoints)
          .where(
            and(
              eq(notificationEndpoints.userId, e.userId),
              eq(notificationEndpoints.type, 'email'),
              eq(notificationEndpoints.isActive, true),
              eq(notificationEndpoints.verificationStatus, 'verified'),
            ),
          );
    const sentence = crossingMessage({
      symbol: e.symbol,
      triggerType: e.triggerType,
      ltp: c.ltp,
      triggerPrice: e.price,
    });
    const [execution] = await tx
      .insert(ruleExecutions)
      .values({
        userId: e.userId,
        ruleId: e.kind === 'rule' ? e.id : null,
        priceAlertId: e.kind === 'alert' ? e.id : null,
        symbol: e.symbol,
        exchange: e.exchange,
        triggerType: e.triggerType,
        status: endpoints.length > 0 ? 'PENDING' : IN_APP_ONLY,
        executionType: 'ALERT',
        accountId: claimed.accountId,
        triggerPrice: String(e.price),
        executionPrice: String(c.ltp),
        message: quota.overQuota ? `${sentence}. ${overQuotaNote(quota.tier)}` : sentence,
        overQuota: quota.overQuota,
      })
      .returning();
    const deliveries =
      endpoints.length === 0
        ? []
        : await tx
            .insert(alertDeliveries)
            .values(
              endpoints.map((ep) => ({
                executionId: execution!.id,
                endpointId: ep.id,
                channel: 'email' as const,
                destination: ep.value,
              })),
            )
            .returning({ id: alertDeliveries.id });
    return { userId: e.userId, execution: execution!, deliveryIds: deliveries.map((d) => d.id) };
  });
}
