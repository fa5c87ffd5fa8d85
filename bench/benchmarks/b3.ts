/**
 * B3: rule evaluation. 1,000,000 active rules (fixed stops, trailing stops, take-profits) over
 * 7,000 instruments in the engine's in-memory index (server/src/triggers/rule-index.ts, built
 * directly from the synthetic rule book, in its own process), one full 7,000-quote tick batch:
 * the time `index.scan` takes (crossings found, trailing peaks raised) and the heap per rule.
 * Baseline, in the same run: the same rules in a fresh PostgreSQL database, the same batch as one
 * indexed query per quote, one after the other. The first batch's crossings must be the same rules.
 */
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows, type DatabaseHandle } from '../../server/src/db/client.ts';
import { startChild } from '../lib/child.ts';
import type { BuiltIndex, ScannedBatch } from '../lib/rules-child.ts';
import {
  RULE_VERSION_MS,
  ruleBatch,
  ruleInstruments,
  ruleRows,
  userUuid,
  type RulePlan,
} from '../lib/rules.ts';
import { freshDatabase } from '../lib/services.ts';
import { median } from '../lib/stats.ts';
import { result, round, type BenchContext, type Benchmark } from '../lib/types.ts';

export const B3_SIZES = {
  full: { rules: 1_000_000, instruments: 7000, rulesPerUser: 20, warmup: 3, batches: 10, sqlWarmup: 1 },
  quick: { rules: 20_000, instruments: 200, rulesPerUser: 20, warmup: 1, batches: 3, sqlWarmup: 0 },
};
type Size = (typeof B3_SIZES)['full'];

/** The batch both sides evaluate from the same state (the index's first). */
const FIRST_SEQ = 1;

export interface B3Evidence {
  size: Size;
  built: BuiltIndex;
  /** The index's first batch (fresh state), then the measured ones. */
  first: ScannedBatch;
  measured: ScannedBatch[];
  sql: { database: string; queries: number; ms: number; crossings: number; insertMs: number };
  /** The first batch crossed exactly the rules the SQL baseline found. */
  sameCrossings: boolean;
}

/** A PostgreSQL array literal (one parameter for a whole column). */
const textArray = (values: readonly string[]) =>
  `{${values.map((v) => `"${v.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
const numberArray = (values: ReadonlyArray<string | null>) => `{${values.map((v) => v ?? 'NULL').join(',')}}`;

const CROSSED_SQL = `select id from position_rules where exchange = $1 and symbol = $2 and is_active and (
  (trigger_type in ('FIXED_STOP_LOSS', 'TRAILING_STOP_LOSS') and computed_trigger_price >= $3)
  or (trigger_type = 'TAKE_PROFIT' and computed_trigger_price <= $3))`;

/** The rule book in the database with set-based inserts (users, then rules in chunks). */
async function insertRules(db: DatabaseHandle['db'], plan: RulePlan, size: Size): Promise<number> {
  const started = performance.now();
  const instruments = ruleInstruments(plan.instruments);
  const users = Array.from({ length: Math.ceil(plan.rules / plan.rulesPerUser) }, (_, u) => userUuid(u));
  for (let i = 0; i < users.length; i += 50_000) {
    await db.execute(sql`insert into users (id, google_sub, email, name)
      select u, 'b3-' || u, u || '@bench.example', 'Bench investor'
      from unnest(${textArray(users.slice(i, i + 50_000))}::uuid[]) u`);
  }
  const chunk = 20_000;
  for (let from = 0; from < size.rules; from += chunk) {
    const rows = ruleRows(plan, instruments, from, Math.min(size.rules, from + chunk));
    const col = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((r) => r[k]);
    await db.execute(sql`insert into position_rules (id, user_id, symbol, exchange, trigger_type,
        trigger_value, value_type, reference_price, peak_price, computed_trigger_price, rule_name,
        rule_scope, action_type, updated_at)
      select r.*, 'Bench rule', 'all_holdings', 'ALERT', to_timestamp(${RULE_VERSION_MS / 1000})
      from unnest(${textArray(col('id'))}::uuid[], ${textArray(col('user_id'))}::uuid[],
        ${textArray(col('symbol'))}::text[], ${textArray(col('exchange'))}::text[],
        ${textArray(col('trigger_type'))}::text[], ${numberArray(col('trigger_value'))}::numeric[],
        ${textArray(col('value_type'))}::text[], ${numberArray(col('reference_price'))}::numeric[],
        ${numberArray(col('peak_price'))}::numeric[], ${numberArray(col('computed_trigger_price'))}::numeric[]) as r`);
  }
  await db.execute(sql`analyze position_rules`);
  return performance.now() - started;
}

/** One query per quote, one after the other; the ids crossed and the time taken. */
async function sqlBatch(
  query: (params: [string, string, string]) => Promise<string[]>,
  plan: RulePlan,
  seq: number,
): Promise<{ ms: number; ids: string[]; queries: number }> {
  const batch = ruleBatch(ruleInstruments(plan.instruments), seq);
  const ids: string[] = [];
  const started = performance.now();
  for (const q of batch.quotes) ids.push(...(await query([q.exchange, q.symbol, String(q.ltp)])));
  return { ms: performance.now() - started, ids, queries: batch.quotes.length };
}

/** The baseline on a fresh database: PostgreSQL (a prepared statement on one connection) or PGlite. */
async function sqlBaseline(ctx: BenchContext, plan: RulePlan, size: Size) {
  const database = await freshDatabase(ctx.postgresUrl);
  const handle = await openDatabase({ databaseUrl: database.url, dataDir: 'memory://' });
  let client: pg.Client | undefined;
  try {
    ctx.log(`B3: inserting ${size.rules} rules into ${database.kind}`);
    const insertMs = await insertRules(handle.db, plan, size);
    let query: (params: [string, string, string]) => Promise<string[]>;
    if (database.url) {
      const connected = new pg.Client({ connectionString: database.url });
      client = connected;
      await connected.connect();
      query = async (values) =>
        (await connected.query<{ id: string }>({ name: 'b3-crossed', text: CROSSED_SQL, values })).rows.map(
          (r) => r.id,
        );
    } else {
      // PGlite (no PostgreSQL server): the same statement through the app's driver.
      query = async ([exchange, symbol, ltp]) =>
        (
          await queryRows<{ id: string }>(
            handle.db,
            sql`select id from position_rules where exchange = ${exchange} and symbol = ${symbol} and is_active and (
              (trigger_type in ('FIXED_STOP_LOSS', 'TRAILING_STOP_LOSS') and computed_trigger_price >= ${ltp}::numeric)
              or (trigger_type = 'TAKE_PROFIT' and computed_trigger_price <= ${ltp}::numeric))`,
          )
        ).map((r) => r.id);
    }
    for (let i = 0; i < size.sqlWarmup; i++) await sqlBatch(query, plan, 1000 + i);
    ctx.log('B3: SQL baseline batch');
    const measured = await sqlBatch(query, plan, FIRST_SEQ);
    return { database: database.kind, insertMs, ...measured };
  } finally {
    await client?.end();
    await handle.close();
    await database.drop();
  }
}

export const b3: Benchmark<B3Evidence> = {
  id: 'B3',
  title: 'Rule evaluation over 1,000,000 rules',
  async run(ctx: BenchContext) {
    const size = ctx.quick ? B3_SIZES.quick : B3_SIZES.full;
    const plan: RulePlan = {
      rules: size.rules,
      instruments: size.instruments,
      rulesPerUser: size.rulesPerUser,
    };
    const child = startChild('rules-child.ts');
    let built: BuiltIndex;
    let first: ScannedBatch;
    const measured: ScannedBatch[] = [];
    try {
      ctx.log(`B3: building the index of ${size.rules} rules over ${size.instruments} instruments`);
      built = await child.call<BuiltIndex>('build', plan);
      first = await child.call<ScannedBatch>('scan', { seq: FIRST_SEQ, ids: true });
      for (let i = 0; i < size.warmup + size.batches; i++) {
        const scanned = await child.call<ScannedBatch>('scan', { seq: FIRST_SEQ + 1 + i, ids: false });
        if (i >= size.warmup) measured.push(scanned);
      }
    } finally {
      await child.stop();
    }
    const baseline = await sqlBaseline(ctx, plan, size);
    const crossed = new Set(first.crossedIds);
    const sameCrossings = crossed.size === baseline.ids.length && baseline.ids.every((id) => crossed.has(id));
    const ms = round(median(measured.map((m) => m.ms)), 2);
    const speedup = baseline.ms / ms;
    const bytes = round(built.heapPerRule, 0);
    const rules = size.rules.toLocaleString('en-US');
    return {
      results: [
        result({
          id: 'B3-batch',
          name: `Rule evaluation: one ${size.instruments.toLocaleString('en-US')}-quote batch over ${rules} rules (in-memory index vs one SQL query per quote, ${baseline.database})`,
          value: ms,
          unit: 'ms',
          baseline: round(baseline.ms, 1),
          target: '≥ 50 × faster than baseline and < 20 ms',
          pass: speedup >= 50 && ms < 20,
        }),
        result({
          id: 'B3-memory',
          name: `Rule index memory per rule (JS heap + external, after GC), ${rules} rules`,
          value: bytes,
          unit: 'B',
          baseline: null,
          target: '< 150 B',
          pass: bytes < 150,
        }),
      ],
      notes: [
        `B3: ${baseline.database}; index built in ${Math.round(built.buildMs)} ms (from rows, in its own process); ` +
          `median of ${size.batches} batches after ${size.warmup} warm-up (first, cold: ${round(first.ms, 2)} ms), ` +
          `${round(speedup, 0)}× faster than the baseline's ${baseline.queries} queries ` +
          `(${round((baseline.ms * 1000) / baseline.queries, 0)} µs each, one connection, prepared); ` +
          `per measured batch (median): ${median(measured.map((m) => m.crossings))} crossings, ` +
          `${median(measured.map((m) => m.moved))} trailing peaks raised, slowest ${round(Math.max(...measured.map((m) => m.ms)), 2)} ms ` +
          `(crossed rules are removed after each batch, as claimed ones are); ` +
          `first batch: ${first.crossings} crossings (${sameCrossings ? 'the same rules as' : 'NOT the same as'} the SQL's ` +
          `${baseline.ids.length}), ${first.moved} trailing peaks raised; rules inserted in ${Math.round(baseline.insertMs / 1000)} s.`,
      ],
      evidence: {
        size,
        built,
        first: { ...first, crossedIds: undefined },
        measured,
        sql: {
          database: baseline.database,
          queries: baseline.queries,
          ms: baseline.ms,
          crossings: baseline.ids.length,
          insertMs: baseline.insertMs,
        },
        sameCrossings,
      },
    };
  },
};
