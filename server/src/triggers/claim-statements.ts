/**
 * The claim's two statements (claim.ts runs them in the chunk's transaction, after the user
 * lock): one claims the chunk's rules, re-armings and price alerts and reads its users' quota
 * counts and the endpoints that receive alerts (notifications/recipients.ts); one inserts the
 * executions with their outbox rows (notifications/outbox-rows.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import { accountDisplayName } from '@app/common/holdings/upload-preview';
import type { Channel } from '@app/common/notifications/channels';
import {
  RULE_KINDS,
  VALUE_TYPE_TRAITS,
  type SubscriptionTier,
  type TriggerType,
} from '@app/common/rules/index';
import { limitedUsers, monthCountsSql } from '../executions/quota.ts';
import { insertOutboxSql, type NewDelivery } from '../notifications/outbox-rows.ts';
import { recipientsByUser, recipientsSql, type Recipient } from '../notifications/recipients.ts';
import type { ExecutionRow } from '../executions/history.ts';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Tx } from '../db/client.ts';
import { rearmPriceSql } from './kind-sql.ts';
import { versionSql } from './load.ts';
import { trailingLevel, type Crossing } from './rule-index.ts';

/** A claimed rule: the account it targets; whether it now waits to re-arm; its name. */
export interface ClaimedRule {
  accountId: string | null;
  waits: boolean;
  name: string;
}

const byId = (a: Crossing, b: Crossing) => (a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0);

/**
 * Claims the chunk's rules (in id order): `id, target_account_id, waits, rule_name` of the claimed
 * ones. An after_recovery rule is left waiting at its re-arm price: rearm_percent above a stop's
 * level, below a take-profit's (common/rules/rearm.ts rearmPrice, in SQL by kind-sql.ts).
 */
function claimRulesSql(crossings: Crossing[]): SQL {
  const sorted = [...crossings].sort(byId);
  const ids = pgArray(sorted.map((c) => c.entry.id));
  return sql`update position_rules as r
        set is_active = false, execution_count = r.execution_count + 1, last_triggered_at = now(),
            updated_at = now(), peak_price = coalesce(c.peak, r.peak_price), computed_trigger_price = c.level,
            rearm_at = case when r.rearm = 'after_recovery' then ${rearmPriceSql(sql`r.trigger_type`, sql`c.level`, sql`r.rearm_percent`)} end
        from unnest(${ids}::uuid[], ${pgArray(sorted.map((c) => c.entry.version))}::numeric[],
                    ${pgArray(sorted.map((c) => c.entry.peak))}::numeric[],
                    ${pgArray(sorted.map((c) => c.entry.price))}::numeric[]) as c(id, version, peak, level)
        where r.id = any(${ids}::uuid[]) and r.id = c.id and r.is_active and ${versionSql('r')} = c.version
        returning r.id, r.target_account_id, r.rearm_at is not null as waits, r.rule_name`;
}

/**
 * The level a rule re-armed at `ltp` watches: a trailing stop's from its fresh peak; others keep
 * theirs, and so does a trailing ATR stop (its level moves only in the nightly recomputation).
 */
function rearmedLevel(c: Crossing): number | null {
  const e = c.entry;
  return RULE_KINDS[e.triggerType as TriggerType].trails &&
    !(e.valueType && VALUE_TYPE_TRAITS[e.valueType].fromBars)
    ? trailingLevel({ valueType: e.valueType, value: e.value, peak: c.ltp })
    : null;
}

/**
 * Re-arms the chunk's waiting rules whose re-arm price was reached (in id order), each exactly
 * once: the versioned update returns a rule only if it is still waiting at the version the
 * crossing saw. A trailing stop's peak restarts from the recovery price (its levels set `at`;
 * a fixed level stays as it was set). `id, target_account_id, level` of the re-armed ones.
 */
function rearmRulesSql(crossings: Crossing[], at: Date): SQL {
  const sorted = [...crossings].sort(byId);
  const ids = pgArray(sorted.map((c) => c.entry.id));
  return sql`update position_rules as r
        set is_active = true, rearm_at = null, updated_at = now(),
            peak_price = case when c.level is null then r.peak_price else c.ltp end,
            computed_trigger_price = coalesce(c.level, r.computed_trigger_price),
            levels_set_at = case when c.level is null then r.levels_set_at else ${at.toISOString()}::timestamptz end
        from unnest(${ids}::uuid[], ${pgArray(sorted.map((c) => c.entry.version))}::numeric[],
                    ${pgArray(sorted.map((c) => c.ltp))}::numeric[],
                    ${pgArray(sorted.map(rearmedLevel))}::numeric[]) as c(id, version, ltp, level)
        where r.id = any(${ids}::uuid[]) and r.id = c.id and not r.is_active and r.rearm_at is not null
          and ${versionSql('r')} = c.version
        returning r.id, r.target_account_id, r.computed_trigger_price as level, r.rule_name`;
}

/** Claims the chunk's price alerts: `id` of the claimed ones. */
function claimAlertsSql(crossings: Crossing[]): SQL {
  const sorted = [...crossings].sort(byId);
  const ids = pgArray(sorted.map((c) => c.entry.id));
  return sql`update price_alerts as a set is_active = false, triggered_at = now(), updated_at = now()
        from unnest(${ids}::uuid[], ${pgArray(sorted.map((c) => c.entry.version))}::numeric[]) as c(id, version)
        where a.id = any(${ids}::uuid[]) and a.id = c.id and a.is_active and ${versionSql('a')} = c.version
        returning a.id`;
}

/** What the claim statement answers. */
export interface ClaimAnswer {
  rules: Map<string, ClaimedRule>;
  rearmed: Map<string, { accountId: string | null; level: number; name: string }>;
  alerts: Set<string>;
  /** The month's counted triggers of the users with a limit. */
  monthCounts: Map<string, number>;
  /** Each user's endpoints that receive alerts, oldest first. */
  endpoints: Map<string, Recipient[]>;
}

type Json<T> = T[] | null;

/**
 * One statement, after the users are locked: claims the chunk's rules, re-armings and price
 * alerts, and reads the quota counts and the alert recipients of its users (on `channels`, those
 * configured on this server). Its snapshot is taken after the lock, so the counts see every
 * earlier trigger of these users.
 */
export async function claimAndRead(
  tx: Tx,
  crossings: readonly Crossing[],
  tiers: ReadonlyMap<string, SubscriptionTier>,
  at: Date,
  channels: ReadonlySet<Channel>,
): Promise<ClaimAnswer> {
  const of = (kind: Crossing['entry']['kind']) => crossings.filter((c) => c.entry.kind === kind);
  const [row] = await queryRows<{
    rules: Json<{ id: string; target_account_id: string | null; waits: boolean; rule_name: string }>;
    rearmed: Json<{
      id: string;
      target_account_id: string | null;
      level: number | string;
      rule_name: string;
    }>;
    alerts: Json<{ id: string }>;
    counts: Json<{ user_id: string; n: number }>;
    endpoints: Json<{ id: string; user_id: string; channel: Channel; value: string }>;
  }>(
    tx,
    sql`with claimed_rules as (${claimRulesSql(of('rule'))}),
          rearmed as (${rearmRulesSql(of('rearm'), at)}),
          claimed_alerts as (${claimAlertsSql(of('alert'))}),
          counts as (${monthCountsSql(limitedUsers(tiers))}),
          endpoints as (${recipientsSql([...tiers.keys()], { kind: 'alert', channels })})
        select (select json_agg(x) from claimed_rules x) as rules,
               (select json_agg(x) from rearmed x) as rearmed,
               (select json_agg(x) from claimed_alerts x) as alerts,
               (select json_agg(x) from counts x) as counts,
               (select json_agg(x order by x.created_at, x.id) from endpoints x) as endpoints`,
  );
  return {
    rules: new Map(
      (row?.rules ?? []).map((r) => [
        r.id,
        { accountId: r.target_account_id, waits: r.waits, name: r.rule_name },
      ]),
    ),
    rearmed: new Map(
      (row?.rearmed ?? []).map((r) => [
        r.id,
        { accountId: r.target_account_id, level: Number(r.level), name: r.rule_name },
      ]),
    ),
    alerts: new Set((row?.alerts ?? []).map((r) => r.id)),
    monthCounts: new Map((row?.counts ?? []).map((r) => [r.user_id, Number(r.n)])),
    endpoints: recipientsByUser(row?.endpoints ?? []),
  };
}

export type NewExecution = Omit<ExecutionRow, 'executedAt'>;

/** A fired rule's position as a notice names it: its account, and the quantity held there. */
export interface NoticePositionRow {
  /** 'Zerodha', 'ICICI Direct · Family', 'Manual'; 'all accounts' for a rule on every account. */
  account: string;
  quantity: number | null;
}

/**
 * The positions of fired rules (by rule id), for the notices of several firings: the rule's
 * account and the quantity of the stock held there (every account's, for an all-holdings rule).
 */
export async function noticePositions(
  tx: Tx,
  ruleIds: readonly string[],
): Promise<Map<string, NoticePositionRow>> {
  if (ruleIds.length === 0) return new Map();
  const rows = await queryRows<{
    id: string;
    broker_name: string | null;
    account_label: string | null;
    quantity: string | null;
  }>(
    tx,
    sql`select r.id, a.broker_name, a.account_label,
          (select sum(h.quantity) from holdings h
            where h.user_id = r.user_id and h.exchange = r.exchange and h.symbol = r.symbol
              and (r.target_account_id is null or h.broker_account_id = r.target_account_id)) as quantity
        from position_rules r left join broker_accounts a on a.id = r.target_account_id
        where r.id = any(${pgArray([...ruleIds])}::uuid[])`,
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        account:
          r.broker_name === null ? 'all accounts' : accountDisplayName(r.broker_name, r.account_label ?? ''),
        quantity: r.quantity === null ? null : Number(r.quantity),
      },
    ]),
  );
}

/**
 * Inserts the executions and their outbox rows in one statement; executed_at keeps the
 * executions' crossing order within the chunk.
 */
export async function insertRecords(
  tx: Tx,
  rows: NewExecution[],
  deliveries: NewDelivery[],
): Promise<ExecutionRow[]> {
  const col = <K extends keyof NewExecution>(k: K) =>
    pgArray(rows.map((r) => r[k] as string | boolean | null));
  const inserted = await queryRows<{ id: string; executed_at: string | Date }>(
    tx,
    sql`with executions as (
          insert into rule_executions (id, user_id, rule_id, price_alert_id, symbol, exchange, trigger_type,
            status, execution_type, account_id, trigger_price, execution_price, message, over_quota, notice_id,
            executed_at)
          select x.id, x.user_id, x.rule_id, x.price_alert_id, x.symbol, x.exchange, x.trigger_type, x.status,
            x.execution_type, x.account_id, x.trigger_price, x.execution_price, x.message, x.over_quota, x.notice_id,
            now() + (x.ord - 1) * interval '1 microsecond'
          from unnest(${col('id')}::uuid[], ${col('userId')}::uuid[], ${col('ruleId')}::uuid[],
            ${col('priceAlertId')}::uuid[], ${col('symbol')}::text[], ${col('exchange')}::text[],
            ${col('triggerType')}::text[], ${col('status')}::text[], ${col('executionType')}::text[],
            ${col('accountId')}::uuid[], ${col('triggerPrice')}::numeric[], ${col('executionPrice')}::numeric[],
            ${col('message')}::text[], ${col('overQuota')}::boolean[], ${col('noticeId')}::uuid[])
            with ordinality as x(id, user_id, rule_id, price_alert_id, symbol, exchange, trigger_type, status,
              execution_type, account_id, trigger_price, execution_price, message, over_quota, notice_id, ord)
          returning id, executed_at),
        outbox as (${insertOutboxSql(deliveries)})
        select id, executed_at from executions`,
  );
  const at = new Map(inserted.map((r) => [r.id, new Date(r.executed_at)]));
  return rows.map((r) => ({ ...r, executedAt: at.get(r.id)! }));
}
