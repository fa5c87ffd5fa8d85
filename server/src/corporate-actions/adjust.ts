/**
 * The adjustments of one bonus or split, inside its claiming transaction: every active rule (and
 * fired rule waiting to re-arm, its re-arm price too; and every fixed stop or target that is off,
 * whose level enabling keeps) and price alert on any listing of the company (NSE and BSE: one
 * ISIN, one bonus) has its
 * levels divided by the ratio, every holding added by
 * hand (the USER_ADDED account) its quantity multiplied and its buy price divided. Imported
 * holdings are left to the broker's next file. Only what was set before the ex-date's session
 * opened is adjusted (`levels_set_at`, `price_set_at`, `lot_set_at`): a file read late must not
 * divide again what was set from ex-bonus prices. Rows are locked in id order (as the engine's
 * peak writes do), CHUNK at a time, so no statement grows with the number of holders, and each
 * gets a new `updated_at`, so a claim or peak write still holding the old version of a rule can
 * no longer land. A row one of whose adjusted amounts would reach what its column holds
 * (AMOUNT_LIMIT) is left as it was and listed in `notAdjusted`: one holding of 99,999,999,999,999
 * shares must not stop a bonus for everyone else.
 */
import { AMOUNT_LIMIT } from '@app/common/api/numbers';
import type { Exchange } from '@app/common/instruments/types';
import { nextOpen } from '@app/common/market/calendar';
import { renamedAfterEdit } from '@app/common/rules/naming';
import { keepsLevelOnEnable } from '@app/common/rules/enabling';
import { TRIGGER_TYPES, type TriggerType, type ValueType } from '@app/common/rules/types';
import { VALUE_TYPE_TRAITS, VALUE_TYPES_DIVIDED_BY_ACTIONS } from '@app/common/rules/value-types';
import { sql, type SQL } from 'drizzle-orm';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Tx } from '../db/client.ts';
import { adjustChunk, CHUNK, inChunks } from './chunks.ts';
import type { CorporateActionRow } from './store.ts';

/** One listing of the company: the action's own, or another with the same ISIN. */
export interface Listing {
  exchange: Exchange;
  symbol: string;
}

/** A row of a listing, whose user is told. */
interface OfListing extends Listing {
  id: string;
  user_id: string;
}

export interface AdjustedRule extends OfListing {
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

export interface AdjustedAlert extends OfListing {
  price_before: string;
  price_after: string;
}

export interface AdjustedHolding extends OfListing {
  quantity_before: string;
  quantity_after: string;
  price_before: string;
  price_after: string;
}

export interface Adjustments {
  rules: AdjustedRule[];
  alerts: AdjustedAlert[];
  manual: AdjustedHolding[];
  /** Rows left as they were (`…_after` is what they would have become, past AMOUNT_LIMIT). */
  notAdjusted: { rules: AdjustedRule[]; alerts: AdjustedAlert[]; manual: AdjustedHolding[] };
  /** Users holding a listing in an imported account (told; nothing changed). */
  importedHolders: Array<Omit<OfListing, 'id'>>;
}

/** A version strictly after the old one even when the clock has not moved on. */
const NEXT_VERSION = sql.raw(`greatest(now(), updated_at + interval '1 millisecond')`);
/** Every adjusted amount must stay below this to fit its NUMERIC(18,4) column. */
const LIMIT = sql.raw(String(AMOUNT_LIMIT));
/**
 * When the ex-date's session opened (09:15 IST on a trading day): prices from then on are
 * ex-bonus (ex-split), so a level, an alert's price or a lot set later was set from them.
 */
function exDateOpen(exDate: string): Date {
  return nextOpen(new Date(`${exDate}T00:00:00+05:30`));
}

/**
 * The rows on the listings whose numbers were set before the ex-date opened: `t` is the table's
 * alias, `setAt` its column saying when they were set.
 */
type Adjustable = (t: string, setAt: string) => SQL;

export async function adjustForAction(
  tx: Tx,
  action: CorporateActionRow,
  listings: readonly Listing[],
): Promise<Adjustments> {
  const opened = exDateOpen(action.exDate).toISOString();
  const keys = sql.join(
    listings.map((l) => sql`(${l.exchange}, ${l.symbol})`),
    sql`, `,
  );
  const on: Adjustable = (t, setAt) =>
    sql`(${sql.raw(t)}.exchange, ${sql.raw(t)}.symbol) in (${keys})
        and ${sql.raw(`${t}.${setAt}`)} < ${opened}::timestamptz`;
  const r = sql`${action.ratio}::numeric`;
  const rules = await inChunks(
    (after) => adjustRules(tx, r, on, after),
    async (done) => {
      await renameDividedRules(tx, done);
      await record(tx, action.id, { rules: done });
    },
  );
  const alerts = await inChunks(
    (after) => adjustAlerts(tx, r, on, after),
    (done) => record(tx, action.id, { alerts: done }),
  );
  const manual = await inChunks(
    (after) => adjustManualHoldings(tx, r, on, after),
    (done) => record(tx, action.id, { manual: done }),
  );
  const imported = await queryRows<Omit<OfListing, 'id'>>(
    tx,
    sql`select distinct h.user_id, h.exchange, h.symbol
        from holdings h join broker_accounts b on b.id = h.broker_account_id
        where ${on('h', 'lot_set_at')} and b.broker_type <> 'USER_ADDED'`,
  );
  return {
    rules: rules.adjusted,
    alerts: alerts.adjusted,
    manual: manual.adjusted,
    notAdjusted: { rules: rules.notAdjusted, alerts: alerts.notAdjusted, manual: manual.notAdjusted },
    importedHolders: imported,
  };
}

/** Whether every amount fits its column. */
const fits = (amounts: SQL[]) => sql`greatest(${sql.join(amounts, sql`, `)}) < ${LIMIT}`;

function adjustRules(tx: Tx, r: SQL, on: Adjustable, after: string) {
  const DIVIDED = [...VALUE_TYPES_DIVIDED_BY_ACTIONS];
  // A fixed level that is off keeps it when enabled again, so it is adjusted too.
  const KEPT = TRIGGER_TYPES.filter(keepsLevelOnEnable);
  const level = sql`round(computed_trigger_price / ${r}, 2)`;
  const reference = sql`round(reference_price / ${r}, 4)`;
  const peak = sql`round(peak_price / ${r}, 4)`;
  const value = sql`case when value_type in ${DIVIDED} then round(trigger_value / ${r}, 4) else trigger_value end`;
  const limit = sql`round(limit_price / ${r}, 2)`;
  const rearm = sql`round(rearm_at / ${r}, 2)`;
  // An ATR stop's ATR is in rupees: divided like its level (its multiple k is not).
  const atr = sql`round(atr_value / ${r}, 4)`;
  return adjustChunk<AdjustedRule>(
    tx,
    sql`select id, user_id, exchange, symbol, rule_name, trigger_type, value_type,
          computed_trigger_price as level_before, ${level} as level_after,
          reference_price as reference_before, ${reference} as reference_after,
          peak_price as peak_before, ${peak} as peak_after,
          trigger_value as trigger_value_before, ${value} as trigger_value_after
        from position_rules t
        where ${on('t', 'levels_set_at')} and (is_active or rearm_at is not null or trigger_type in ${KEPT})
          and id > ${after}::uuid
        order by id limit ${CHUNK} for update`,
    (ids) =>
      sql`update position_rules set computed_trigger_price = ${level}, reference_price = ${reference},
            peak_price = ${peak}, trigger_value = ${value}, limit_price = ${limit}, rearm_at = ${rearm},
            atr_value = ${atr}, updated_at = ${NEXT_VERSION}
          where id = any(${ids}) and ${fits([level, reference, peak, value, limit, rearm])}
          returning id, computed_trigger_price as level_after, reference_price as reference_after,
            peak_price as peak_after, trigger_value as trigger_value_after`,
  );
}

function adjustAlerts(tx: Tx, r: SQL, on: Adjustable, after: string) {
  const price = sql`round(price / ${r}, 2)`;
  return adjustChunk<AdjustedAlert>(
    tx,
    sql`select id, user_id, exchange, symbol, price as price_before, ${price} as price_after
        from price_alerts t where ${on('t', 'price_set_at')} and is_active and id > ${after}::uuid
        order by id limit ${CHUNK} for update`,
    (ids) =>
      sql`update price_alerts set price = ${price}, updated_at = ${NEXT_VERSION}
          where id = any(${ids}) and ${fits([price])}
          returning id, price as price_after`,
  );
}

function adjustManualHoldings(tx: Tx, r: SQL, on: Adjustable, after: string) {
  const quantity = sql`round(quantity * ${r}, 4)`;
  const price = sql`round(average_price / ${r}, 4)`;
  return adjustChunk<AdjustedHolding>(
    tx,
    sql`select h.id, h.user_id, h.exchange, h.symbol, h.quantity as quantity_before, ${quantity} as quantity_after,
          h.average_price as price_before, ${price} as price_after
        from holdings h join broker_accounts b on b.id = h.broker_account_id
        where ${on('h', 'lot_set_at')} and b.broker_type = 'USER_ADDED' and h.id > ${after}::uuid
        order by h.id limit ${CHUNK} for update of h`,
    (ids) =>
      sql`update holdings set quantity = ${quantity}, average_price = ${price}, updated_at = now()
          where id = any(${ids}) and ${fits([quantity, price])}
          returning id, quantity as quantity_after, average_price as price_after`,
  );
}

/**
 * A rupee or price rule keeps the name the app gave it in step ('Take profit ₹300.00' becomes
 * 'Take profit ₹150.00', 'Fixed stop loss at ₹2,850.00' 'Fixed stop loss at ₹1,425.00'); a name
 * the user typed stays. One statement for the chunk.
 */
async function renameDividedRules(tx: Tx, rules: AdjustedRule[]): Promise<void> {
  const renamed: Array<{ id: string; name: string }> = [];
  for (const r of rules) {
    if (!VALUE_TYPE_TRAITS[r.value_type].dividedByCorporateAction) continue;
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
    if (name !== r.rule_name) renamed.push({ id: r.id, name });
  }
  if (renamed.length === 0) return;
  await tx.execute(
    sql`update position_rules p set rule_name = v.name
        from unnest(${pgArray(renamed.map((x) => x.id))}::uuid[], ${pgArray(renamed.map((x) => x.name))}::text[])
          as v(id, name)
        where p.id = v.id`,
  );
}

/** A chunk's adjustments, kept with the action (before and after of each row): one statement. */
async function record(
  tx: Tx,
  actionId: string,
  a: { rules?: AdjustedRule[]; alerts?: AdjustedAlert[]; manual?: AdjustedHolding[] },
): Promise<void> {
  const rows = [
    ...(a.rules ?? []).map((x) => ({
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
    ...(a.alerts ?? []).map((x) => ({
      userId: x.user_id,
      target: 'price_alert' as const,
      targetId: x.id,
      before: { price: x.price_before },
      after: { price: x.price_after },
    })),
    ...(a.manual ?? []).map((x) => ({
      userId: x.user_id,
      target: 'holding' as const,
      targetId: x.id,
      before: { quantity: x.quantity_before, average_price: x.price_before },
      after: { quantity: x.quantity_after, average_price: x.price_after },
    })),
  ];
  if (rows.length === 0) return;
  const column = (f: (row: (typeof rows)[number]) => string) => pgArray(rows.map(f));
  await tx.execute(
    sql`insert into corporate_action_adjustments (action_id, user_id, target, target_id, before, after)
        select ${actionId}::uuid, v.user_id, v.target, v.target_id, v.before, v.after
        from unnest(${column((x) => x.userId)}::uuid[], ${column((x) => x.target)}::text[],
          ${column((x) => x.targetId)}::uuid[], ${column((x) => JSON.stringify(x.before))}::jsonb[],
          ${column((x) => JSON.stringify(x.after))}::jsonb[]) as v(user_id, target, target_id, before, after)`,
  );
}
