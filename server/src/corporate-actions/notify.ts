/**
 * Tells each user touched by an adjustment, in the claiming transaction: one History row per
 * listing of theirs it touched (`rule_executions`, type CORPORATE_ACTION, named by that
 * listing; also the bell's item and the `alert` push) and one outbox row per endpoint that
 * receives corporate-action notices (notifications/recipients.ts). Not an alert: it never
 * counts against the monthly email quota (notifications/kinds.ts) and is never held back by it.
 */
import {
  adjustmentMessage,
  CORPORATE_ACTION_EXECUTION,
  type UserAdjustment,
} from '@app/common/corporate-actions/index';
import type { Channel } from '@app/common/notifications/channels';
import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../db/client.ts';
import { ruleExecutions } from '../db/schema.ts';
import { IN_APP_ONLY, type ExecutionRow } from '../executions/history.ts';
import { deliveriesTo, insertOutbox } from '../notifications/outbox-rows.ts';
import { recipientsByUser, recipientsSql, type Recipient } from '../notifications/recipients.ts';
import type { Adjustments, Listing } from './adjust.ts';
import type { CorporateActionRow } from './store.ts';

/** Notices written per statement. */
const CHUNK = 500;

export interface Notice {
  userId: string;
  execution: ExecutionRow;
  deliveryIds: string[];
}

/** One notice: a user's adjustments on one listing of the company. */
interface ListingNotice extends Listing {
  userId: string;
  adjustment: UserAdjustment;
}

/** The notices, one per user and listing (a user with rules on NSE and BSE is told of each). */
function perListing(action: CorporateActionRow, a: Adjustments): ListingNotice[] {
  const described = { kind: action.kind, purpose: action.purpose, ex_date: action.exDate };
  const notices = new Map<string, ListingNotice>();
  const of = (row: { user_id: string } & Listing) => {
    const key = `${row.user_id}|${row.exchange}:${row.symbol}`;
    let n = notices.get(key);
    if (!n) {
      n = {
        userId: row.user_id,
        exchange: row.exchange,
        symbol: row.symbol,
        adjustment: {
          symbol: row.symbol,
          action: described,
          rules: [],
          alerts: [],
          manual: [],
          notAdjusted: [],
          imported: false,
        },
      };
      notices.set(key, n);
    }
    return n.adjustment;
  };
  // Highest level first: take profits above, stops below, as on a price ladder.
  const rules = [...a.rules].sort((x, y) => Number(y.level_before) - Number(x.level_before));
  for (const r of rules) {
    of(r).rules.push({
      name: r.rule_name,
      before: Number(r.level_before),
      after: Number(r.level_after),
    });
  }
  for (const x of a.alerts)
    of(x).alerts.push({ before: Number(x.price_before), after: Number(x.price_after) });
  for (const h of a.manual) {
    of(h).manual.push({
      quantityBefore: Number(h.quantity_before),
      quantityAfter: Number(h.quantity_after),
      priceAfter: Number(h.price_after),
    });
  }
  const left = a.notAdjusted;
  for (const r of left.rules)
    of(r).notAdjusted.push({ kind: 'rule', name: r.rule_name, level: Number(r.level_before) });
  for (const x of left.alerts) of(x).notAdjusted.push({ kind: 'alert', price: Number(x.price_before) });
  for (const h of left.manual) {
    of(h).notAdjusted.push({
      kind: 'holding',
      quantityBefore: Number(h.quantity_before),
      quantityAfter: Number(h.quantity_after),
      priceBefore: Number(h.price_before),
      priceAfter: Number(h.price_after),
    });
  }
  for (const holder of a.importedHolders) of(holder).imported = true;
  return [...notices.values()];
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

/** Writes each touched user's History row and outbox rows (to endpoints on `channels`). */
export async function recordNotices(
  tx: Tx,
  {
    action,
    adjustments: a,
    channels,
  }: { action: CorporateActionRow; adjustments: Adjustments; channels: ReadonlySet<Channel> },
): Promise<Notice[]> {
  const listed = perListing(action, a);
  if (listed.length === 0) return [];
  const userIds = [...new Set(listed.map((n) => n.userId))];
  const endpoints = await queryRows<{ id: string; user_id: string; channel: Channel; value: string }>(
    tx,
    sql`select * from (${recipientsSql(userIds, { kind: 'corporate_action', channels })}) r order by created_at, id`,
  );
  // Two statements per chunk, not two per user: a popular stock has thousands of holders.
  const ratio = Number(action.ratio);
  const endpointsOf: Map<string, Recipient[]> = recipientsByUser(endpoints);
  const notices: Notice[] = [];
  for (let i = 0; i < listed.length; i += CHUNK) {
    const chunk = listed.slice(i, i + CHUNK);
    const executions = await tx
      .insert(ruleExecutions)
      .values(
        chunk.map(({ userId, exchange, symbol, adjustment: u }) => {
          const [before, after] = pricePair(u, ratio);
          return {
            userId,
            symbol,
            exchange,
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
      deliveriesTo(execution.id, endpointsOf.get(execution.userId) ?? []),
    );
    await insertOutbox(tx, outbox);
    const deliveriesOf = groupBy(outbox, (d) => d.executionId);
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
