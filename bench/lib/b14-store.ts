/**
 * B14 from the store: one user holding `holdings` instruments, each with made daily bars in
 * `daily_bars`, and Price Guard's preview (server/src/rules/guard-preview.ts, the route's own
 * service: every holding's bars in one query, adjusted, then backtested) timed on it; and one
 * more instrument with 5 years of bars, backtested as POST /api/position-rules/backtest does it
 * (server/src/history/backtest.ts: its bars read and adjusted, then replayed).
 */
import { sql } from 'drizzle-orm';
import type { DailyBar } from '../../common/src/history/bars.ts';
import type { ApiBacktest, BacktestInput } from '../../common/src/api/backtest.ts';
import type { PriceGuardBacktest } from '../../common/src/api/price-guard.ts';
import { pgArray } from '../../server/src/db/arrays.ts';
import { openDatabase } from '../../server/src/db/client.ts';
import type { Exchange, Instrument } from '../../common/src/instruments/types.ts';
import { backtestHolding } from '../../server/src/history/backtest.ts';
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
  /** The 5-year backtest of one instrument from the store: each run's time and the last answer. */
  single: { times: number[]; answer: ApiBacktest };
}

/** The instrument the 5-year backtest from the store reads. */
const FIVE_YEAR_SYMBOL = 'B14FIVE';

/**
 * Seeds a fresh database (PostgreSQL when reachable, else PGlite) and times `runs` previews of
 * the default 7 % trailing stop over 3 years (`barsOf(h)` makes holding h's bars), and
 * `singleRuns` 5-year backtests of `single` on `fiveYears`.
 */
export async function previewFromStore(
  ctx: BenchContext,
  size: { holdings: number; runs: number; singleRuns: number },
  barsOf: (h: number) => DailyBar[],
  five: { bars: DailyBar[]; rule: Omit<BacktestInput, 'symbol' | 'exchange' | 'years'> },
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
    const rows = [
      ...symbols.flatMap((symbol, h) => barsOf(h).map((bar) => ({ symbol, ...bar }))),
      ...five.bars.map((bar) => ({ symbol: FIVE_YEAR_SYMBOL, ...bar })),
    ];
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
    ctx.log(
      `B14: ${count.toLocaleString('en-US')} bars of ${size.holdings} holdings and one 5-year instrument in ${database.kind}`,
    );

    // The evening after the last bar.
    const now = new Date(`${last}T14:00:00Z`);
    const deps = {
      db: handle.db,
      // Every made symbol is "listed" on its own (no other listing, no corporate actions).
      instruments: {
        listingsOf: (symbol: string, exchange: Exchange) => [{ symbol, exchange } as Instrument],
      },
    };
    const singleInput = { ...five.rule, symbol: FIVE_YEAR_SYMBOL, exchange: 'NSE', years: 5 } as const;
    let single = await backtestHolding(deps, singleInput, now); // warm up
    const singleTimes: number[] = [];
    for (let r = 0; r < size.singleRuns; r++) {
      const started = performance.now();
      single = await backtestHolding(deps, singleInput, now);
      singleTimes.push(performance.now() - started);
    }
    ctx.log(
      `B14 one 5-year backtest from the store: median ${median(singleTimes).toFixed(2)} ms over ${size.singleRuns} runs`,
    );

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
    return {
      database: database.kind,
      bars: count,
      times,
      answer,
      single: { times: singleTimes, answer: single },
    };
  } finally {
    await handle.close();
    await database.drop();
  }
}
