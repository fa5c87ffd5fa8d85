/**
 * Tells each user touched by an adjustment, in the claiming transaction: one History row
 * (`rule_executions`, type CORPORATE_ACTION, also the bell's item and the `alert` push) and one
 * outbox row per verified email endpoint. Not an alert: it never counts against the monthly
 * email quota (executions/quota.ts leaves this type out) and is always emailed.
 */
import {
  adjustmentMessage,
  CORPORATE_ACTION_EXECUTION,
  type UserAdjustment,
} from '@app/common/corporate-actions/index';
import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { alertDeliveries, notificationEndpoints, ruleExecutions } from '../db/schema.ts';
import type { ExecutionRow } from '../executions/history.ts';
import type { Adjustments } from './adjust.ts';
import type { CorporateActionRow } from './store.ts';

/** Users written per statement. */
const CHUNK = 500;

/** Recorded in-app only: the user has no verified email endpoint (alerts use the same word). */
const IN_APP_ONLY = 'IN_APP_ONLY';

export interface Notice {
  userId: string;
  execution: ExecutionRow;
  deliveryIds: string[];
}

function perUser(action: CorporateActionRow, a: Adjustments): Map<string, UserAdjustment> {
  const described = { kind: action.kind, purpose: action.purpose, ex_date: action.exDate };
  const users = new Map<string, UserAdjustment>();
  const of = (userId: string) => {
    let u = users.get(userId);
    if (!u) {
      u = { symbol: action.symbol, action: described, rules: [], alerts: [], manual: [], imported: false };
      users.set(userId, u);
    }
    return u;
  };
  // Highest level first: take profits above, stops below, as on a price ladder.
  const rules = [...a.rules].sort((x, y) => Number(y.level_before) - Number(x.level_before));
  for (const r of rules) {
    of(r.user_id).rules.push({
      name: r.rule_name,
      before: Number(r.level_before),
      after: Number(r.level_after),
    });
  }
  for (const x of a.alerts)
    of(x.user_id).alerts.push({ before: Number(x.price_before), after: Number(x.price_after) });
  for (const h of a.manual) {
    of(h.user_id).manual.push({
      quantityBefore: Number(h.quantity_before),
      quantityAfter: Number(h.quantity_after),
      priceAfter: Number(h.price_after),
    });
  }
  for (const userId of a.importedHolders) of(userId).imported = true;
  return users;
}

/**
 * The price a user's History row shows before and after: their first adjusted level, alert or
 * buy price (the ratio is the same for every one of them).
 */
function pricePair(u: UserAdjustment, ratio: number): [number, number] {
  const rule = u.rules[0];
  if (rule) return [rule.before, rule.after];
  const alert = u.alerts[0];
  if (alert) return [alert.before, alert.after];
  const held = u.manual[0];
  if (held) return [held.priceAfter * ratio, held.priceAfter];
  return [ratio, 1];
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/** Writes each touched user's History row and outbox rows. */
export async function recordNotices(
  tx: Tx,
  { action, adjustments: a }: { action: CorporateActionRow; adjustments: Adjustments },
): Promise<Notice[]> {
  const users = perUser(action, a);
  if (users.size === 0) return [];
  const endpoints = await tx
    .select({
      id: notificationEndpoints.id,
      userId: notificationEndpoints.userId,
      value: notificationEndpoints.value,
    })
    .from(notificationEndpoints)
    .where(
      and(
        inArray(notificationEndpoints.userId, [...users.keys()]),
        eq(notificationEndpoints.type, 'email'),
        eq(notificationEndpoints.isActive, true),
        eq(notificationEndpoints.verificationStatus, 'verified'),
      ),
    );
  // Two statements per chunk, not two per user: a popular stock has thousands of holders.
  const ratio = Number(action.ratio);
  const endpointsOf = groupBy(endpoints, (e) => e.userId);
  const notices: Notice[] = [];
  const entries = [...users];
  for (let i = 0; i < entries.length; i += CHUNK) {
    const chunk = entries.slice(i, i + CHUNK);
    const executions = await tx
      .insert(ruleExecutions)
      .values(
        chunk.map(([userId, u]) => {
          const [before, after] = pricePair(u, ratio);
          return {
            userId,
            symbol: action.symbol,
            exchange: action.exchange,
            triggerType: action.kind,
            executionType: CORPORATE_ACTION_EXECUTION,
            status: endpointsOf.has(userId) ? 'PENDING' : IN_APP_ONLY,
            triggerPrice: before.toFixed(4),
            executionPrice: after.toFixed(4),
            message: adjustmentMessage(u),
            overQuota: false,
          };
        }),
      )
      .returning();
    const outbox = executions.flatMap((execution) =>
      (endpointsOf.get(execution.userId) ?? []).map((ep) => ({
        executionId: execution.id,
        endpointId: ep.id,
        channel: 'email' as const,
        destination: ep.value,
      })),
    );
    const deliveries =
      outbox.length === 0
        ? []
        : await tx
            .insert(alertDeliveries)
            .values(outbox)
            .returning({ id: alertDeliveries.id, executionId: alertDeliveries.executionId });
    const deliveriesOf = groupBy(deliveries, (d) => d.executionId);
    for (const execution of executions) {
      notices.push({
        userId: execution.userId,
        execution,
        deliveryIds: (deliveriesOf.get(execution.id) ?? []).map((d) => d.id),
      });
    }
  }
  return notices;
}
