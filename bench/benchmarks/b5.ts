/**
 * B5: importing a 1,000-row Zerodha (Kite) holdings export, `POST /api/holdings/upload-csv`,
 * from sending the request to the answer (sent after the commit), on PostgreSQL and on PGlite
 * (on disk, as `npm start` keeps it). Baseline: the same rows as single-row INSERTs in one
 * transaction, timed inside the server process.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { round2 } from '@app/common/portfolio/position-math';
import { plausibleSymbols } from '../lib/market.ts';
import type { HoldingRow } from '../lib/seed.ts';
import { startAppServer, tokenFor } from '../lib/servers.ts';
import { freshDatabase } from '../lib/services.ts';
import { median, phases } from '../lib/stats.ts';
import { result, round, type BenchContext, type Benchmark } from '../lib/types.ts';

export const B5_SIZES = {
  full: { rows: 1000, warmup: 1, runs: 5 },
  quick: { rows: 100, warmup: 0, runs: 1 },
};
type Size = (typeof B5_SIZES)['full'];

export interface ImportRuns {
  database: 'PostgreSQL' | 'PGlite';
  /** Measured imports: request-to-answer ms, rows the answer says it created, rows then in the table. */
  imports: Array<{ ms: number; created: number; committed: number }>;
  /** The same rows inserted one by one: ms, rows then in the table. */
  rowByRow: Array<{ ms: number; committed: number }>;
}

export interface B5Evidence {
  size: Size;
  runs: ImportRuns[];
}

/** A Kite holdings export (every header quoted, as Kite writes it) of these rows. */
export function zerodhaCsv(rows: readonly HoldingRow[]): string {
  const header = '"Instrument","Qty.","Avg. cost","LTP","Invested","Cur. val","P&L","Net chg.","Day chg.",""';
  const lines = rows.map((r) => {
    const ltp = round2(r.averagePrice * 1.05);
    const invested = round2(r.quantity * r.averagePrice);
    const value = round2(r.quantity * ltp);
    return `"${r.symbol}",${r.quantity},${r.averagePrice},${ltp},${invested},${value},${round2(value - invested)},5,0.4,""`;
  });
  return [header, ...lines].join('\n');
}

export function holdingRows(n: number): HoldingRow[] {
  return plausibleSymbols(n).map((symbol, i) => ({
    symbol,
    quantity: 1 + ((i * 37) % 500),
    averagePrice: round2(10 + ((i * 7919) % 499_000) / 100),
  }));
}

async function measure(
  kind: ImportRuns['database'],
  databaseUrl: string | undefined,
  size: Size,
): Promise<ImportRuns> {
  const dataDir = databaseUrl ? undefined : await mkdtemp(path.join(tmpdir(), 'bench-b5-'));
  const server = await startAppServer({ databaseUrl, dataDir });
  const rows = holdingRows(size.rows);
  const csvData = zerodhaCsv(rows);
  const out: ImportRuns = { database: kind, imports: [], rowByRow: [] };
  try {
    const users = await server.seedUsers({
      tag: 'b5',
      count: 2 * (size.warmup + size.runs),
      perUser: 0,
      symbols: [],
    });
    for (const [i, user] of users.entries()) {
      if (i % 2 === 1) {
        const ms = await server.insertRowByRow(user.id, rows);
        if (i >= 2 * size.warmup) out.rowByRow.push({ ms, committed: await server.countHoldings(user.id) });
        continue;
      }
      const started = performance.now();
      const res = await fetch(`${server.url}/api/holdings/upload-csv`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokenFor(user.id)}`, 'content-type': 'application/json' },
        // The seeded user's own (empty) Zerodha account: the file fills it.
        body: JSON.stringify({ csvData, broker_name: 'Zerodha' }),
      });
      const body = (await res.json()) as { data?: { summary?: { created: number } }; error?: string };
      const ms = performance.now() - started;
      if (res.status !== 201) throw new Error(`upload-csv answered ${res.status}: ${body.error}`);
      if (i >= 2 * size.warmup)
        out.imports.push({
          ms,
          created: body.data?.summary?.created ?? 0,
          committed: await server.countHoldings(user.id),
        });
    }
    return out;
  } finally {
    await server.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

const medianMs = (runs: Array<{ ms: number }>) => round(median(runs.map((r) => r.ms)));

export const b5: Benchmark<B5Evidence> = {
  id: 'B5',
  title: 'Import of a 1,000-row broker file',
  async run(ctx: BenchContext) {
    const size = ctx.quick ? B5_SIZES.quick : B5_SIZES.full;
    const onPostgres = async (url: string) => {
      const database = await freshDatabase(url);
      try {
        ctx.log(`B5: PostgreSQL, ${size.rows} rows`);
        return await measure('PostgreSQL', database.url, size);
      } finally {
        await database.drop();
      }
    };
    const onPglite = () => {
      ctx.log(`B5: PGlite, ${size.rows} rows`);
      return measure('PGlite', undefined, size);
    };
    const pgUrl = ctx.postgresUrl;
    const runs = pgUrl ? await phases(ctx.quick, () => onPostgres(pgUrl), onPglite) : [await onPglite()];
    const pg = runs.find((r) => r.database === 'PostgreSQL');
    const lite = runs.find((r) => r.database === 'PGlite')!;
    const pgMs = pg ? medianMs(pg.imports) : null;
    const liteMs = medianMs(lite.imports);
    const name = (db: string) => `Import ${size.rows} Zerodha rows, request to committed (${db})`;
    return {
      results: [
        result({
          id: 'B5-postgres',
          name: name('PostgreSQL'),
          value: pgMs,
          unit: 'ms',
          baseline: pg ? medianMs(pg.rowByRow) : null,
          target: pg ? '< 500 ms' : '< 500 ms (not measured: no PostgreSQL server reachable)',
          pass: pgMs !== null && pgMs < 500,
        }),
        result({
          id: 'B5-pglite',
          name: name('PGlite, on disk'),
          value: liteMs,
          unit: 'ms',
          baseline: medianMs(lite.rowByRow),
          target:
            pgMs === null
              ? '≤ 2.5 × PostgreSQL (not measured)'
              : `≤ 2.5 × PostgreSQL (≤ ${round(2.5 * pgMs)} ms)`,
          pass: pgMs !== null && liteMs <= 2.5 * pgMs,
        }),
      ],
      notes: [
        `B5: median of ${size.runs} imports after ${size.warmup} warm-up, each into a new user; baseline: the ` +
          `same ${size.rows} rows as single-row INSERTs in one transaction (timed in the server); ` +
          `PGlite/PostgreSQL import ratio ${pgMs === null ? 'n/a' : round(liteMs / pgMs, 2)}.`,
      ],
      evidence: { size, runs },
    };
  },
};
