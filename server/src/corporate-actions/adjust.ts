/**
 * The adjustments of one bonus or split, inside its claiming transaction: every active rule (and
 * fired rule waiting to re-arm, its re-arm price too) and price alert on the instrument has its
 * levels divided by the ratio, every holding added by
 * hand (the USER_ADDED account) its quantity multiplied and its buy price divided. Imported
 * holdings are left to the broker's next file. Rows are locked in id order (as the engine's
 * peak writes do) and each gets a new `updated_at`, so a claim or peak write still holding the
 * old version of a rule can no longer land.
 */
import { renamedAfterEdit } from '@app/common/rules/naming';
import type { TriggerType, ValueType } from '@app/common/rules/types';
import { eq, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../db/client.ts';
import { corporateActionAdjustments, positionRules } from '../db/schema.ts';
import type { CorporateActionRow } from './store.ts';

export interface AdjustedRule {
  id: string;
  user_id: string;
  /** The name before the adjustment (what the user knows it by). */
  rule_name: string;
  trigger_type: TriggerType;
  value_type: ValueType;
  level_before: string;
  level_after: string;
  reference_before: string;
  reference_after: string;
  peak_before: string | null;
  peak_after: string | null;
  trigger_value_before: string;
  trigger_value_after: string;
}

export interface AdjustedAlert {
  id: string;
  user_id: string;
  price_before: string;
  price_after: string;
}

export interface AdjustedHolding {
  id: string;
  user_id: string;
  quantity_before: string;
  quantity_after: string;
  price_before: string;
  price_after: string;
}

export interface Adjustments {
  rules: AdjustedRule[];
  alerts: AdjustedAlert[];
  manual: AdjustedHolding[];
  /** Users holding the instrument in an imported account (told; nothing changed). */
  importedHolders: string[];
}

/** A version strictly after the old one even when the clock has not moved on. */
const NEXT_VERSION = sql.raw(`greatest(now(), old.updated_at + interval '1 millisecond')`);

export async function adjustForAction(tx: Tx, action: CorporateActionRow): Promise<Adjustments> {
  const r = sql`${action.ratio}::numeric`;
  const on = sql`exchange = ${action.exchange} and symbol = ${action.symbol}`;
  const rules = await queryRows<AdjustedRule>(
    tx,
    sql`with old as (
          select * from position_rules where ${on} and (is_active or rearm_at is not null)
          order by id for update)
        update position_rules r set
          reference_price = round(old.reference_price / ${r}, 4),
          peak_price = round(old.peak_price / ${r}, 4),
          computed_trigger_price = round(old.computed_trigger_price / ${r}, 2),
          trigger_value = case when old.value_type = 'ABSOLUTE'
                               then round(old.trigger_value / ${r}, 4) else old.trigger_value end,
          limit_price = round(old.limit_price / ${r}, 2),
          rearm_at = round(old.rearm_at / ${r}, 2),
          updated_at = ${NEXT_VERSION}
        from old where r.id = old.id
        returning r.id, r.user_id, r.rule_name, r.trigger_type, r.value_type,
          old.computed_trigger_price as level_before, r.computed_trigger_price as level_after,
          old.reference_price as reference_before, r.reference_price as reference_after,
          old.peak_price as peak_before, r.peak_price as peak_after,
          old.trigger_value as trigger_value_before, r.trigger_value as trigger_value_after`,
  );
  await renameAbsoluteRules(tx, rules);
  const alerts = await queryRows<AdjustedAlert>(
    tx,
    sql`with old as (select * from price_alerts where ${on} and is_active order by id for update)
        update price_alerts a set price = round(old.price / ${r}, 2), updated_at = ${NEXT_VERSION}
        from old where a.id = old.id
        returning a.id, a.user_id, old.price as price_before, a.price as price_after`,
  );
  const manual = await queryRows<AdjustedHolding>(
    tx,
    sql`with old as (
          select h.* from holdings h join broker_accounts b on b.id = h.broker_account_id
          where h.exchange = ${action.exchange} and h.symbol = ${action.symbol}
            and b.broker_type = 'USER_ADDED' order by h.id for update of h)
        update holdings h set quantity = old.quantity * ${r},
          average_price = round(old.average_price / ${r}, 4), updated_at = now()
        from old where h.id = old.id
        returning h.id, h.user_id, old.quantity as quantity_before, h.quantity as quantity_after,
          old.average_price as price_before, h.average_price as price_after`,
  );
  const imported = await queryRows<{ user_id: string }>(
    tx,
    sql`select distinct h.user_id from holdings h join broker_accounts b on b.id = h.broker_account_id
        where h.exchange = ${action.exchange} and h.symbol = ${action.symbol} and b.broker_type <> 'USER_ADDED'`,
  );
  await record(tx, action.id, { rules, alerts, manual, importedHolders: [] });
  return { rules, alerts, manual, importedHolders: imported.map((i) => i.user_id) };
}

/**
 * A rupee rule keeps the name the app gave it in step ('Take profit ₹300.00' becomes 'Take
 * profit ₹150.00'); a name the user typed stays.
 */
async function renameAbsoluteRules(tx: Tx, rules: AdjustedRule[]): Promise<void> {
  for (const r of rules) {
    if (r.value_type !== 'ABSOLUTE') continue;
    const trigger = (value: string) => ({
      trigger_type: r.trigger_type,
      value_type: r.value_type,
      trigger_value: Number(value),
    });
    const name = renamedAfterEdit(
      r.rule_name,
      trigger(r.trigger_value_before),
      trigger(r.trigger_value_after),
    );
    if (name !== r.rule_name)
      await tx.update(positionRules).set({ ruleName: name }).where(eq(positionRules.id, r.id));
  }
}

/** The adjustments, kept with the action (before and after of each row). */
async function record(tx: Tx, actionId: string, a: Adjustments): Promise<void> {
  const rows = [
    ...a.rules.map((x) => ({
      actionId,
      userId: x.user_id,
      target: 'rule' as const,
      targetId: x.id,
      before: {
        computed_trigger_price: x.level_before,
        reference_price: x.reference_before,
        peak_price: x.peak_before,
        trigger_value: x.trigger_value_before,
      },
      after: {
        computed_trigger_price: x.level_after,
        reference_price: x.reference_after,
        peak_price: x.peak_after,
        trigger_value: x.trigger_value_after,
      },
    })),
    ...a.alerts.map((x) => ({
      actionId,
      userId: x.user_id,
      target: 'price_alert' as const,
      targetId: x.id,
      before: { price: x.price_before },
      after: { price: x.price_after },
    })),
    ...a.manual.map((x) => ({
      actionId,
      userId: x.user_id,
      target: 'holding' as const,
      targetId: x.id,
      before: { quantity: x.quantity_before, average_price: x.price_before },
      after: { quantity: x.quantity_after, average_price: x.price_after },
    })),
  ];
  if (rows.length > 0) await tx.insert(corporateActionAdjustments).values(rows);
}
