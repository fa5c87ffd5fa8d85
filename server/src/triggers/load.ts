/** Loads active rules and price alerts as index entries: all of them at start, or one user's. */
import type { Exchange } from '@app/common/instruments/types';
import { instrumentKey } from '@app/common/market/tick-batch';
import {
  priceAlertKind,
  RULE_KINDS,
  VALUE_TYPE_TRAITS,
  type TriggerType,
  type ValueType,
} from '@app/common/rules/index';
import { sql, type SQL } from 'drizzle-orm';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Executor } from '../db/client.ts';
import type { WatchEntry } from './rule-index.ts';

/**
 * updated_at to the millisecond, as an exact number (epoch ms): the version that peak writes
 * and claims are tied to. `table` qualifies the column.
 */
export function versionSql(table?: string): SQL {
  const column = table ? `${table}.updated_at` : 'updated_at';
  return sql.raw(`(extract(epoch from date_trunc('milliseconds', ${column})) * 1000)`);
}

/** An active (or waiting to re-arm) position_rules row as loadWatchEntries selects it. */
export interface RuleRow {
  id: string;
  user_id: string;
  symbol: string;
  exchange: Exchange;
  trigger_type: TriggerType;
  trigger_value: string;
  value_type: ValueType;
  reference_price: string;
  peak_price: string | null;
  computed_trigger_price: string;
  /** Set on a fired rule waiting to re-arm (is_active false): the price that re-arms it. */
  rearm_at: string | null;
  version: string | number;
}

interface AlertRow {
  id: string;
  user_id: string;
  symbol: string;
  exchange: Exchange;
  direction: 'above' | 'below';
  price: string;
  version: string | number;
}

/**
 * The index entry of a rule row: an armed rule watches its level; a fired one waiting to re-arm
 * watches its re-arm price the other way (a stop's recovery upwards, a take-profit's fall back).
 */
export function ruleEntry(r: RuleRow): WatchEntry {
  if (r.rearm_at !== null) {
    return {
      ...armedEntry(r),
      kind: 'rearm',
      direction: RULE_KINDS[r.trigger_type].direction === 'above' ? 'below' : 'above',
      price: Number(r.rearm_at),
      peak: null,
    };
  }
  return armedEntry(r);
}

function armedEntry(r: RuleRow): WatchEntry {
  const kind = RULE_KINDS[r.trigger_type];
  return {
    kind: 'rule',
    id: r.id,
    userId: r.user_id,
    key: instrumentKey(r.exchange, r.symbol),
    symbol: r.symbol,
    exchange: r.exchange,
    triggerType: r.trigger_type,
    direction: kind.direction,
    price: Number(r.computed_trigger_price),
    valueType: r.value_type,
    value: Number(r.trigger_value),
    // A trailing ATR stop's level rises only in the nightly recomputation: no peak in the engine.
    peak:
      kind.trails && !VALUE_TYPE_TRAITS[r.value_type].fromBars
        ? Number(r.peak_price ?? r.reference_price)
        : null,
    version: Number(r.version),
    claiming: false,
  };
}

function alertEntry(r: AlertRow): WatchEntry {
  return {
    kind: 'alert',
    id: r.id,
    userId: r.user_id,
    key: instrumentKey(r.exchange, r.symbol),
    symbol: r.symbol,
    exchange: r.exchange,
    triggerType: priceAlertKind(r.direction),
    direction: r.direction,
    price: Number(r.price),
    valueType: null,
    value: Number(r.price),
    peak: null,
    version: Number(r.version),
    claiming: false,
  };
}

/** Every active rule (and rule waiting to re-arm) and price alert, or only those of `users` (one id or many). */
export async function loadWatchEntries(
  db: Executor,
  users?: string | readonly string[],
): Promise<WatchEntry[]> {
  const ids = typeof users === 'string' ? [users] : users;
  const ofUser: SQL = ids ? sql`and user_id = any(${pgArray(ids)}::uuid[])` : sql``;
  const rules = await queryRows<RuleRow>(
    db,
    sql`select id, user_id, symbol, exchange, trigger_type, trigger_value, value_type, reference_price,
               peak_price, computed_trigger_price, rearm_at, ${versionSql()}::float8 as version
        from position_rules where (is_active or rearm_at is not null) ${ofUser}`,
  );
  const alerts = await queryRows<AlertRow>(
    db,
    sql`select id, user_id, symbol, exchange, direction, price, ${versionSql()}::float8 as version
        from price_alerts where is_active ${ofUser}`,
  );
  return [...rules.map(ruleEntry), ...alerts.map(alertEntry)];
}
