/**
 * B14's preview read from the store: one user holding `holdings` instruments, each with
 * `days` made daily bars in `daily_bars`, and Price Guard's preview (server/src/rules/guard-preview.ts,
 * the route's own service: every holding's bars in one query, adjusted, then backtested) timed on it.
 */
import { sql } from 'drizzle-orm';
import type { DailyBar } from '../../common/src/history/bars.ts';
import type { PriceGuardBacktest } from '../../common/src/api/price-guard.ts';
import { pgArray } from '../../server/src/db/arrays.ts';
import { openDatabase } from '../../server/src/db/client.ts';
import { previewGuardForUser } from '../../server/src/rules/guard-preview.ts';
import { median } from './stats.ts';
import { seedUsers } from './seed.ts';
import { freshDatabase } from './services.ts';
import type { BenchContext } from './types.ts';

/** Rows a statement inserts: well under PostgreSQL's parameter and memory limits. */
const CHUNK = 20_000;

export interface StorePreviewRun {
  database: 'PostgreSQL' | 'PGlite';
  bars: number;
  times: number[];
  answer: PriceGuardBacktest;
}

/**
 * Seeds a fresh database (PostgreSQL when reachable, else PGlite) and times `runs` previews of
 * the default 7 % trailing stop over 3 years; `barsOf(h)` makes holding h's bars.
 */
export async function previewFromStore(
  ctx: BenchContext,
  size: { holdings: number; runs: number },
  barsOf: (h: number) => DailyBar[],
): Promise<StorePreviewRun> {
  const database = await freshDatabase(ctx.postgresUrl);
  const handle = await openDatabase({ databaseUrl: database.url, dataDir: 'memory://' });
  try {
    const symbols = Array.from({ length: size.holdings }, (_, h) => `B14S${h}`);
    const [user] = await seedUsers(handle.db, {
      tag: 'b14',
      count: 1,
      perUser: size.holdings,
      symbols,
    });
    let last = '';
    let count = 0;
    const rows = symbols.flatMap((symbol, h) => barsOf(h).map((bar) => ({ symbol, ...bar })));
    for (let i = 0; i < rows.length; i += CHUNK) {
      const chunk = rows.slice(i, i + CHUNK);
      const column = (f: 'symbol' | 'date' | 'open' | 'high' | 'low' | 'close' | 'volume') =>
        pgArray(chunk.map((r) => r[f]));
      await handle.db.execute(sql`insert into daily_bars
          (exchange, symbol, date, open, high, low, close, volume, source)
        select 'NSE', s, d, o, h, l, c, v, 'b14' from unnest(${column('symbol')}::text[],
          ${column('date')}::date[], ${column('open')}::numeric[], ${column('high')}::numeric[],
          ${column('low')}::numeric[], ${column('close')}::numeric[], ${column('volume')}::bigint[])
          as r(s, d, o, h, l, c, v)`);
      for (const r of chunk) if (r.date > last) last = r.date;
      count += chunk.length;
    }
    await handle.db.execute(sql`analyze daily_bars`);
    ctx.log(`B14: ${count.toLocaleString('en-US')} bars of ${size.holdings} holdings in ${database.kind}`);

    // The evening after the last bar.
    const now = new Date(`${last}T14:00:00Z`);
    const deps = { db: handle.db, instruments: { listingsOf: () => [] } };
    const input = {
      trigger_type: 'TRAILING_STOP_LOSS',
      value_type: 'PERCENT',
      trigger_value: 7,
      rearm: 'never',
      rearm_percent: 3,
      years: 3,
    } as const;
    let answer = await previewGuardForUser(deps, { userId: user!.id, input, now }); // warm up
    const times: number[] = [];
    for (let r = 0; r < size.runs; r++) {
      const started = performance.now();
      answer = await previewGuardForUser(deps, { userId: user!.id, input, now });
      times.push(performance.now() - started);
    }
    ctx.log(`B14 preview from the store: median ${median(times).toFixed(1)} ms over ${size.runs} runs`);
    return { database: database.kind, bars: count, times, answer };
  } finally {
    await handle.close();
    await database.drop();
  }
}
