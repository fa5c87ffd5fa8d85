/**
 * B11: syncing a connected Zerodha account of 500 holdings (issue #31). The fake Kite Connect of
 * the tests (test/helpers/fake-brokers/kite.ts) runs on loopback in the bench process and answers
 * with 500 real NSE shares of the shipped instrument master, ISINs included. One user connects
 * through its login page (the connect's own first sync adds all 500); then each round changes
 * every quantity at the fake and times `POST /api/brokers/:id/sync` from the request to the answer
 * (sent after the commit). Baseline, in the same run on the same server, round by round: the same
 * holdings as a Kite CSV, `POST /api/holdings/upload-csv`, each into a fresh account.
 */
import { readSnapshot } from '../../server/src/instruments/snapshot.ts';
import { startFakeKite, type FakeKite, type KiteHoldingRow } from '../../test/helpers/fake-brokers/kite.ts';
import { startAppServer, tokenFor, type AppServer } from '../lib/servers.ts';
import { freshDatabase } from '../lib/services.ts';
import { percentile } from '../lib/stats.ts';
import { result, round, type BenchContext, type Benchmark } from '../lib/types.ts';
import { zerodhaCsv } from './b5.ts';

export const B11_SIZES = {
  full: { holdings: 500, warmup: 3, rounds: 30 },
  quick: { holdings: 50, warmup: 0, rounds: 2 },
};
type Size = (typeof B11_SIZES)['full'];

/** One timed request: ms from request to answer, what the answer counted, holdings then stored. */
export interface TimedWrite {
  ms: number;
  /** Added (connect), changed (sync) or created (CSV import), as the answer says. */
  counted: number;
  committed: number;
}

export interface B11Evidence {
  size: Size;
  database: 'PostgreSQL' | 'PGlite';
  /** The connect's callback (code exchanged, account created, first sync of every holding). */
  connect: TimedWrite;
  syncs: TimedWrite[];
  imports: TimedWrite[];
}

/**
 * `n` holdings in Kite's shape (the sample's row, every field Kite sends) of NSE equities of the
 * shipped master, spread over it; every tenth has T1 shares (bought, not yet delivered).
 */
export async function kiteHoldingsOf(n: number, template: KiteHoldingRow): Promise<KiteHoldingRow[]> {
  const { instruments } = await readSnapshot();
  const shares = instruments.filter((i) => i.exchange === 'NSE' && i.kind === 'EQUITY' && i.series === 'EQ');
  if (shares.length < n) throw new Error(`the master lists only ${shares.length} NSE shares`);
  const step = Math.floor(shares.length / n);
  return Array.from({ length: n }, (_, k) => {
    const share = shares[k * step]!;
    const price = round(10 + ((k * 7919) % 249_000) / 100, 2);
    return {
      ...template,
      tradingsymbol: share.symbol,
      exchange: 'NSE',
      isin: share.isin,
      quantity: 1 + ((k * 37) % 400),
      t1_quantity: k % 10 === 0 ? 5 : 0,
      average_price: price,
      last_price: round(price * 1.05, 2),
      close_price: round(price * 1.04, 2),
    };
  });
}

/** The same holdings as the Kite holdings CSV an investor downloads (quantity: settled plus T1). */
export function kiteCsvOf(rows: readonly KiteHoldingRow[]): string {
  return zerodhaCsv(
    rows.map((r) => ({
      symbol: r.tradingsymbol,
      quantity: r.quantity + r.t1_quantity,
      averagePrice: r.average_price,
    })),
  );
}

/** A request as the signed-in user's browser sends it: ms to the answer, its status and body. */
async function timed(server: AppServer, userId: string, method: string, path: string, body?: unknown) {
  const started = performance.now();
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${tokenFor(userId)}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: unknown; error?: string };
  const ms = performance.now() - started;
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${json.error}`);
  return { ms, data: json.data as Record<string, unknown> };
}

/** Connects the user's Zerodha through the fake's login page; the callback timed; the account id. */
async function connect(server: AppServer, fake: FakeKite, userId: string) {
  const { data } = await timed(server, userId, 'POST', '/api/brokers/connect', { broker: 'kite' });
  const callback = await fake.loginRedirect(String(data.login_url));
  const started = performance.now();
  const res = await fetch(callback, { redirect: 'manual' });
  const ms = performance.now() - started;
  const location = res.headers.get('location') ?? '';
  if (res.status !== 302 || !location.endsWith('/holdings?connected=kite'))
    throw new Error(`the Kite callback answered ${res.status} to ${location}`);
  const listed = await timed(server, userId, 'GET', '/api/brokers');
  const accounts = listed.data as unknown as Array<{
    broker_account_id: string;
    broker_type: string;
    holdings_count: number;
  }>;
  const account = accounts.find((a) => a.broker_type === 'API');
  if (!account) throw new Error('no API account after connecting');
  return { ms, accountId: account.broker_account_id, added: account.holdings_count };
}

async function measure(size: Size, databaseUrl: string | undefined, fake: FakeKite) {
  const server = await startAppServer({ databaseUrl, env: fake.env });
  try {
    fake.script.redirectUrl = `${server.url}/api/brokers/callback/kite`;
    const base = await kiteHoldingsOf(size.holdings, fake.sampleHoldings()[0]!);
    fake.script.holdings = base;
    const total = size.warmup + size.rounds;
    const [investor, ...importers] = await server.seedUsers({
      tag: 'b11',
      count: 1 + total,
      perUser: 0,
      symbols: [],
    });
    const joined = await connect(server, fake, investor!.id);
    const connected: TimedWrite = {
      ms: joined.ms,
      counted: joined.added,
      committed: await server.countHoldings(investor!.id),
    };
    const syncs: TimedWrite[] = [];
    const imports: TimedWrite[] = [];
    for (let i = 0; i < total; i++) {
      // Every quantity moves by one each round, so each sync writes every holding.
      const rows = base.map((r) => ({ ...r, quantity: r.quantity + ((i + 1) % 2) }));
      fake.script.holdings = rows;
      const sync = await timed(server, investor!.id, 'POST', `/api/brokers/${joined.accountId}/sync`, {});
      const synced = { ms: sync.ms, counted: Number(sync.data.changed), committed: 0 };
      synced.committed = await server.countHoldings(investor!.id);
      const upload = await timed(server, importers[i]!.id, 'POST', '/api/holdings/upload-csv', {
        csvData: kiteCsvOf(rows),
        broker_name: 'Zerodha',
        dry_run: false,
      });
      const summary = upload.data.summary as { created: number } | undefined;
      const imported = {
        ms: upload.ms,
        counted: summary?.created ?? 0,
        committed: await server.countHoldings(importers[i]!.id),
      };
      if (i < size.warmup) continue;
      syncs.push(synced);
      imports.push(imported);
    }
    return { connect: connected, syncs, imports };
  } finally {
    await server.stop();
  }
}

const ms = (runs: readonly TimedWrite[], p = 50) =>
  round(
    percentile(
      runs.map((r) => r.ms),
      p,
    ),
  );

export const b11: Benchmark<B11Evidence> = {
  id: 'B11',
  title: 'Sync of a 500-holding Zerodha account against importing its CSV',
  async run(ctx: BenchContext) {
    const size = ctx.quick ? B11_SIZES.quick : B11_SIZES.full;
    const fake = await startFakeKite();
    const database = await freshDatabase(ctx.postgresUrl);
    try {
      ctx.log(`B11: ${database.kind}, ${size.holdings} holdings, ${size.rounds} rounds`);
      const run = await measure(size, database.url, fake);
      const syncMs = ms(run.syncs);
      const csvMs = ms(run.imports);
      const n = size.holdings;
      const complete = run.syncs.every((s) => s.counted === n && s.committed === n);
      const name = `Sync of a ${n}-holding Zerodha account (fake Kite on loopback), request to committed, median (${database.kind})`;
      return {
        results: [
          result({
            id: 'B11-sync-ms',
            name,
            value: syncMs,
            unit: 'ms',
            baseline: null,
            target: '< 1 s',
            pass: complete && syncMs < 1000,
          }),
          result({
            id: 'B11-ratio',
            name: `${name}, against importing the same holdings from a Kite CSV into a fresh account (the baseline column)`,
            value: syncMs,
            unit: 'ms',
            baseline: csvMs,
            target: '≤ 1.5 × the CSV import',
            pass: complete && syncMs <= 1.5 * csvMs,
          }),
        ],
        notes: [
          `B11: ${database.kind}, one server process, the fake Kite in the bench process; ${size.rounds} rounds after ` +
            `${size.warmup} warm-up, each a sync that changes all ${n} quantities, then the same ${n} holdings as a ` +
            `Kite CSV into a new user's account. Sync median ${syncMs} ms, p95 ${ms(run.syncs, 95)} ms; ` +
            `CSV import median ${csvMs} ms, p95 ${ms(run.imports, 95)} ms. Connecting (the callback: code ` +
            `exchanged, account created, first sync adding all ${n}) took ${round(run.connect.ms)} ms.`,
        ],
        evidence: { size, database: database.kind, ...run },
      };
    } finally {
      await database.drop();
      await fake.close();
    }
  },
};
