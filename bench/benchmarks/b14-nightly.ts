/**
 * B14's nightly part (issue #33): the recomputation of trailing ATR stops after the close
 * (server/src/history/atr-nightly.ts: the ATR of each instrument once, one update through
 * unnest) over `rules` stops on `instruments` instruments with a year of made bars each, against
 * the baseline of recomputing each rule's ATR from its own bars and updating it alone, one rule
 * after the other (history/atr-of.ts per rule). The baseline runs over `baselineRules` of them
 * (at 200,000 it would take many minutes) and is scaled to all: its cost is per rule.
 */
import { sql } from 'drizzle-orm';
import { wilderAtr } from '../../common/src/history/atr.ts';
import { adjustBars } from '../../common/src/history/adjust.ts';
import { openDatabase, queryRows, type Executor } from '../../server/src/db/client.ts';
import { recomputeAtrStops } from '../../server/src/history/atr-nightly.ts';
import { adjustmentsOf } from '../../server/src/history/bars.ts';
import { ATR_LOOKBACK_DAYS, barsOf, shiftDate } from '../../server/src/history/atr-of.ts';
import { readBars } from '../../server/src/history/store.ts';
import { freshDatabase } from '../lib/services.ts';
import type { BenchContext } from '../lib/types.ts';
import { madeBars } from './b14.ts';

export const NIGHTLY_SIZES = {
  full: { rules: 200_000, instruments: 1000, users: 2000, baselineRules: 2000 },
  quick: { rules: 2000, instruments: 20, users: 20, baselineRules: 100 },
};
type NightlySize = (typeof NIGHTLY_SIZES)['full'];

/** Trading days of made bars per instrument: a year and the day itself. */
const BARS = 260;
const PERIODS = [14, 22];

export interface NightlyEvidence {
  size: NightlySize;
  /** Rules the set-based run raised or confirmed, and those the baseline recomputed. */
  rules: number;
  baselineRules: number;
  /** The set-based run and the baseline agree on every level of the baseline's rules. */
  agree: boolean;
  ms: number;
  baselineMs: number;
}

/** A year of bars of every instrument, ending `day`, in a few statements. */
async function seedBars(db: Executor, size: NightlySize): Promise<string> {
  const series = madeBars(BARS, 77);
  const day = series[series.length - 1]!.date;
  const days = series.map((b) => b.date);
  for (let i = 0; i < size.instruments; i += 100) {
    const symbols = Array.from({ length: Math.min(100, size.instruments - i) }, (_, k) => `ATRB${i + k}`);
    // Each instrument its own scale of the one walk: bars differ, the work is the same.
    await db.execute(sql`insert into daily_bars (exchange, symbol, date, open, high, low, close, volume, source)
      select 'NSE', s.sym, d.date::date, round(d.o * s.f, 2), round(d.h * s.f, 2), round(d.l * s.f, 2),
        round(d.c * s.f, 2), 1000, 'bench'
      from unnest(${`{${symbols.join(',')}}`}::text[]) with ordinality as s0(sym, n)
      cross join lateral (select s0.sym, (1 + (s0.n % 7) * 0.1)::numeric as f) s
      cross join unnest(${`{${days.join(',')}}`}::text[], ${`{${series.map((b) => b.open).join(',')}}`}::numeric[],
        ${`{${series.map((b) => b.high).join(',')}}`}::numeric[], ${`{${series.map((b) => b.low).join(',')}}`}::numeric[],
        ${`{${series.map((b) => b.close).join(',')}}`}::numeric[]) as d(date, o, h, l, c)`);
  }
  return day;
}

/** `rules` trailing ATR stops armed the day before, spread over users and instruments. */
async function seedRules(db: Executor, size: NightlySize, day: string): Promise<void> {
  await db.execute(sql`insert into users (google_sub, email, name, subscription_tier)
    select 'atrb-' || g, 'atrb-' || g || '@bench.example', 'Bench investor ' || g, 'advanced'
    from generate_series(0, ${size.users - 1}::int) g`);
  await db.execute(sql`insert into position_rules (user_id, symbol, exchange, rule_name, rule_scope, action_type,
      trigger_type, trigger_value, value_type, reference_price, peak_price, computed_trigger_price,
      atr_period, atr_value, atr_as_of)
    select u.id, 'ATRB' || (g % ${size.instruments}::int), 'NSE', 'Bench ATR stop', 'all_holdings', 'ALERT',
      'TRAILING_STOP_LOSS', 2 + (g % 3), 'ATR', 100, 100, 50,
      (array[${PERIODS[0]!}, ${PERIODS[1]!}]::int[])[1 + g % 2], 1, ${shiftDate(day, -1)}::date
    from generate_series(0, ${size.rules - 1}::int) g
    join users u on u.google_sub = 'atrb-' || (g % ${size.users}::int)`);
  await db.execute(sql`analyze position_rules`);
  await db.execute(sql`analyze daily_bars`);
}

/** The baseline: each rule's ATR from its own bars, then its own update, one rule after the other. */
async function oneRuleAtATime(db: Executor, ids: readonly string[], day: string): Promise<void> {
  for (const id of ids) {
    const [r] = await queryRows<{
      exchange: 'NSE';
      symbol: string;
      atr_period: number;
    }>(db, sql`select exchange, symbol, atr_period from position_rules where id = ${id}`);
    const stored = await readBars(db, {
      exchange: r!.exchange,
      symbol: r!.symbol,
      from: shiftDate(day, -ATR_LOOKBACK_DAYS),
      to: day,
    });
    const bars = adjustBars(barsOf(stored), (await adjustmentsOf(db, [r!], day))([r!]));
    const atr = wilderAtr(bars, r!.atr_period)[bars.length - 1]!;
    const close = bars[bars.length - 1]!.close;
    await db.execute(sql`update position_rules set
        peak_price = greatest(coalesce(peak_price, reference_price), ${close}::numeric),
        computed_trigger_price = greatest(computed_trigger_price,
          round(greatest(coalesce(peak_price, reference_price), ${close}::numeric) - trigger_value * ${atr}::numeric, 2)),
        atr_value = round(${atr}::numeric, 4), atr_as_of = ${day}::date, updated_at = now()
      where id = ${id}`);
  }
}

export async function nightlyRecomputation(
  ctx: BenchContext,
  quick: boolean,
): Promise<NightlyEvidence | null> {
  if (!ctx.postgresUrl) return null;
  const size = quick ? NIGHTLY_SIZES.quick : NIGHTLY_SIZES.full;
  const database = await freshDatabase(ctx.postgresUrl);
  const handle = await openDatabase({ databaseUrl: database.url, dataDir: 'memory://' });
  try {
    const { db } = handle;
    const day = await seedBars(db, size);
    await seedRules(db, size, day);
    ctx.log(
      `B14 nightly: ${size.rules.toLocaleString('en-US')} ATR stops on ${size.instruments} instruments seeded`,
    );
    let started = performance.now();
    // The made instruments are in no master: each is its own company.
    const night = await recomputeAtrStops({ db, instruments: { listingsOf: () => [] } }, day);
    const ms = performance.now() - started;
    // The baseline's rules, taken back to before the night, recomputed one at a time.
    const sample = await queryRows<{ id: string; level: string }>(
      db,
      sql`select id, computed_trigger_price::text as level from position_rules order by id limit ${size.baselineRules}`,
    );
    const ids = sample.map((s) => s.id);
    await db.execute(sql`update position_rules set peak_price = 100, computed_trigger_price = 50,
        atr_as_of = ${shiftDate(day, -1)}::date where id = any(${`{${ids.join(',')}}`}::uuid[])`);
    started = performance.now();
    await oneRuleAtATime(db, ids, day);
    const baselineMs = ((performance.now() - started) * size.rules) / ids.length;
    const after = await queryRows<{ id: string; level: string }>(
      db,
      sql`select id, computed_trigger_price::text as level from position_rules order by id limit ${size.baselineRules}`,
    );
    const agree = after.every((a, i) => Number(a.level) === Number(sample[i]!.level));
    return { size, rules: night.rules, baselineRules: ids.length, agree, ms, baselineMs };
  } finally {
    await handle.close();
    await database.drop();
  }
}
