/**
 * The nightly recomputation of trailing ATR stops (docs/exit-rules.md, "ATR stops and the
 * backtest"): after the close, each instrument's ATR(n) is worked out once from its adjusted bars
 * up to the day's own bar, and one update raises every active trailing ATR stop on it to k × ATR
 * below the highest close since arming, never lower than it was. Set-based: three reads (the
 * instruments and periods in use, their bars, their bonuses and splits) and one update through
 * unnest, however many rules. A rule already recomputed for the day is left alone, so a second
 * run (another instance, a retry) changes nothing. An instrument without the day's bar in the
 * store is skipped and counted: its stops keep yesterday's level.
 */
import { adjustBars, type PriceAdjustment } from '@app/common/history/adjust';
import { wilderAtr } from '@app/common/history/atr';
import type { Exchange } from '@app/common/instruments/types';
import { instrumentKey } from '@app/common/market/tick-batch';
import { RULE_KINDS, TRIGGER_TYPES } from '@app/common/rules/kinds';
import { sql } from 'drizzle-orm';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Executor } from '../db/client.ts';
import { ATR_LOOKBACK_DAYS, barsOf, shiftDate, type AtrSource } from './atr-of.ts';
import { companyOf } from './bars.ts';
import type { StoredBar } from './store.ts';

/** The kinds whose ATR level the night raises (the trailing ones); a fixed ATR stop stays where it was set. */
const TRAILING_KINDS = TRIGGER_TYPES.filter((kind) => RULE_KINDS[kind].trails);

export interface AtrNight {
  day: string;
  /** Rules raised or confirmed for the day. */
  rules: number;
  /** Instruments whose ATR was worked out. */
  instruments: number;
  /** Instruments with active trailing ATR stops but no bar of the day in the store (skipped). */
  withoutBar: string[];
  /** Users whose rules changed (their engines reload them). */
  users: string[];
}

interface InUse {
  exchange: Exchange;
  symbol: string;
  periods: number[];
}

/** The instruments with active trailing ATR stops not yet recomputed for `day`, and their periods. */
function instrumentsInUse(db: Executor, day: string): Promise<InUse[]> {
  return queryRows<InUse>(
    db,
    sql`select exchange, symbol, array_agg(distinct atr_period) as periods
        from position_rules
        where is_active and value_type = 'ATR' and trigger_type = any(${pgArray(TRAILING_KINDS)}::text[])
          and atr_period is not null and (atr_as_of is null or atr_as_of < ${day}::date)
        group by exchange, symbol`,
  );
}

type BarRow = StoredBar & { exchange: Exchange; symbol: string };

/**
 * Bars of the instruments up to `day`, and the bonuses and splits of any listing of each one's
 * company (NSE's file brings a BSE listing's bonus too; one per ex-date and kind), in two statements.
 */
async function readHistory({ db, instruments }: AtrSource, inUse: readonly InUse[], day: string) {
  const exchanges = pgArray(inUse.map((i) => i.exchange));
  const symbols = pgArray(inUse.map((i) => i.symbol));
  const companies = new Map(
    inUse.map((i) => [instrumentKey(i.exchange, i.symbol), companyOf(instruments, i)]),
  );
  const listed = new Map(
    [...companies.values()].flat().map((l) => [instrumentKey(l.exchange, l.symbol), l] as const),
  );
  const bars = await queryRows<BarRow>(
    db,
    sql`select b.exchange, b.symbol, to_char(b.date, 'YYYY-MM-DD') as date, b.open::text, b.high::text,
          b.low::text, b.close::text, b.volume::text
        from daily_bars b join unnest(${exchanges}::text[], ${symbols}::text[]) as i(exchange, symbol)
          on b.exchange = i.exchange and b.symbol = i.symbol
        where b.date between ${shiftDate(day, -ATR_LOOKBACK_DAYS)}::date and ${day}::date
        order by b.exchange, b.symbol, b.date`,
  );
  const actions = await queryRows<{
    exchange: Exchange;
    symbol: string;
    ex_date: string;
    kind: string;
    ratio: string;
  }>(
    db,
    sql`select distinct c.exchange, c.symbol, to_char(c.ex_date, 'YYYY-MM-DD') as ex_date, c.kind, c.ratio::text
        from corporate_actions c
          join unnest(${pgArray([...listed.values()].map((l) => l.exchange))}::text[],
                      ${pgArray([...listed.values()].map((l) => l.symbol))}::text[]) as i(exchange, symbol)
          on c.exchange = i.exchange and c.symbol = i.symbol
        where c.kind in ('BONUS', 'SPLIT') and c.ratio is not null and c.ex_date <= ${day}::date`,
  );
  const barsOfKey = new Map<string, StoredBar[]>();
  for (const b of bars) {
    const key = instrumentKey(b.exchange, b.symbol);
    const list = barsOfKey.get(key);
    if (list) list.push(b);
    else barsOfKey.set(key, [b]);
  }
  const actionsOfListing = new Map<string, typeof actions>();
  for (const a of actions) {
    const key = instrumentKey(a.exchange, a.symbol);
    actionsOfListing.set(key, [...(actionsOfListing.get(key) ?? []), a]);
  }
  const actionsOfKey = new Map<string, PriceAdjustment[]>();
  for (const [key, company] of companies) {
    const unique = new Map<string, PriceAdjustment>();
    for (const a of company.flatMap((l) => actionsOfListing.get(instrumentKey(l.exchange, l.symbol)) ?? []))
      unique.set(`${a.ex_date}|${a.kind}`, { exDate: a.ex_date, ratio: Number(a.ratio) });
    actionsOfKey.set(key, [...unique.values()]);
  }
  return { barsOfKey, actionsOfKey };
}

/** One row of the update: an instrument's ATR(n) and close of the day. */
interface AtrRow {
  exchange: Exchange;
  symbol: string;
  period: number;
  atr: number;
  close: number;
}

/**
 * Recomputes, for `day` (`YYYY-MM-DD`, a trading day whose session has closed), every active
 * trailing ATR stop not yet done for it.
 */
export async function recomputeAtrStops(source: AtrSource, day: string, at = new Date()): Promise<AtrNight> {
  const { db } = source;
  const inUse = await instrumentsInUse(db, day);
  const night: AtrNight = { day, rules: 0, instruments: 0, withoutBar: [], users: [] };
  if (inUse.length === 0) return night;
  const { barsOfKey, actionsOfKey } = await readHistory(source, inUse, day);
  const rows: AtrRow[] = [];
  for (const i of inUse) {
    const key = instrumentKey(i.exchange, i.symbol);
    const stored = barsOfKey.get(key) ?? [];
    if (stored[stored.length - 1]?.date !== day) {
      night.withoutBar.push(key);
      continue;
    }
    const bars = adjustBars(barsOf(stored), actionsOfKey.get(key) ?? []);
    const close = bars[bars.length - 1]!.close;
    night.instruments += 1;
    for (const period of i.periods) {
      const atr = wilderAtr(bars, period)[bars.length - 1];
      if (atr !== undefined) rows.push({ exchange: i.exchange, symbol: i.symbol, period, atr, close });
    }
  }
  if (rows.length === 0) return night;
  const peak = sql`greatest(coalesce(r.peak_price, r.reference_price), v.close)`;
  const changed = await queryRows<{ user_id: string; n: number }>(
    db,
    sql`with raised as (
          update position_rules r
          set peak_price = ${peak},
              computed_trigger_price = greatest(r.computed_trigger_price, round(${peak} - r.trigger_value * v.atr, 2)),
              atr_value = round(v.atr, 4), atr_as_of = ${day}::date,
              levels_set_at = ${at.toISOString()}::timestamptz, updated_at = now()
          from unnest(${pgArray(rows.map((r) => r.exchange))}::text[], ${pgArray(rows.map((r) => r.symbol))}::text[],
                      ${pgArray(rows.map((r) => r.period))}::int[], ${pgArray(rows.map((r) => r.atr))}::numeric[],
                      ${pgArray(rows.map((r) => r.close))}::numeric[]) as v(exchange, symbol, period, atr, close)
          where r.exchange = v.exchange and r.symbol = v.symbol and r.atr_period = v.period
            and r.is_active and r.value_type = 'ATR' and r.trigger_type = any(${pgArray(TRAILING_KINDS)}::text[])
            and (r.atr_as_of is null or r.atr_as_of < ${day}::date)
          returning r.user_id)
        select user_id, count(*)::int as n from raised group by user_id`,
  );
  night.users = changed.map((c) => c.user_id);
  night.rules = changed.reduce((sum, c) => sum + c.n, 0);
  return night;
}
