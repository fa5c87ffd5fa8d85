/**
 * B4: `GET /api/holdings` for a user with 200 holdings (with quotes and instruments), autocannon
 * with 100 connections, against the app in its own process. Baseline: a bare Koa route in the
 * same kind of process answering the same body (serialised per request, as the real one is).
 * The market is live during the load: a full tick batch reaches the app each second through
 * Redis, so its prices (and its cached answer) change under the requests.
 */
import { createRedisBus } from '@app/streamer';
import autocannon from 'autocannon';
import { pino } from 'pino';
import { plausibleSymbols, tickBatch } from '../lib/market.ts';
import { startAppServer, startBareKoaServer, tokenFor, type ServerHandle } from '../lib/servers.ts';
import { freshDatabase, startRedisServer } from '../lib/services.ts';
import { result, round, type BenchContext, type Benchmark } from '../lib/types.ts';

export const B4_SIZES = {
  full: { holdings: 200, instruments: 2000, otherUsers: 1000, connections: 100, warmupS: 3, durationS: 10 },
  quick: { holdings: 200, instruments: 2000, otherUsers: 10, connections: 10, warmupS: 0, durationS: 1 },
};
type Size = (typeof B4_SIZES)['full'];

export interface LoadRun {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Non-2xx answers, socket errors and timeouts: all must be 0. */
  failures: number;
}

export interface B4Evidence {
  size: Size;
  /** Holdings in the one answer checked before the load. */
  holdingsListed: number;
  /** Full tick batches published while the app was under load. */
  batchesDuringLoad: number;
  app: LoadRun;
  baseline: LoadRun;
}

async function load(server: ServerHandle, size: Size, headers: Record<string, string>): Promise<LoadRun> {
  const opts = { url: `${server.url}/api/holdings`, connections: size.connections, headers };
  if (size.warmupS) await autocannon({ ...opts, duration: size.warmupS });
  // autocannon drops its connections at the end; stopping the server waits for the requests
  // still running (runtime.close).
  const r = await autocannon({ ...opts, duration: size.durationS });
  return {
    requests: r['2xx'],
    perSecond: round(r['2xx'] / r.duration, 0),
    p50: r.latency.p50,
    p99: r.latency.p99,
    failures: r.non2xx + r.errors + r.timeouts,
  };
}

export const b4: Benchmark<B4Evidence> = {
  id: 'B4',
  title: 'GET /api/holdings under load',
  async run(ctx: BenchContext) {
    const size = ctx.quick ? B4_SIZES.quick : B4_SIZES.full;
    const symbols = plausibleSymbols(size.instruments);
    const database = await freshDatabase(ctx.postgresUrl);
    let app: LoadRun;
    let baseline: LoadRun;
    let body: { data?: unknown[] };
    let batchesDuringLoad = 0;
    const redis = await startRedisServer();
    try {
      ctx.log(
        `B4: app server (${database.kind}, Redis, a tick batch each second), ${size.connections} connections`,
      );
      const server = await startAppServer({ databaseUrl: database.url, redisUrl: redis.url });
      const bus = createRedisBus(redis.url, pino({ level: 'warn' }));
      let seq = 0;
      const market = setInterval(() => {
        batchesDuringLoad += 1;
        void bus.publishBatch(tickBatch(symbols, ++seq));
      }, 1000);
      try {
        await server.seedUsers({ tag: 'b4others', count: size.otherUsers, perUser: 20, symbols });
        const [user] = await server.seedUsers({ tag: 'b4', count: 1, perUser: size.holdings, symbols });
        await server.seedQuotes(symbols);
        const headers = { authorization: `Bearer ${tokenFor(user!.id)}` };
        const res = await fetch(`${server.url}/api/holdings`, { headers });
        body = (await res.json()) as { data?: unknown[] };
        if (res.status !== 200 || body.data?.length !== size.holdings)
          throw new Error(`GET /api/holdings answered ${res.status} with ${body.data?.length} holdings`);
        batchesDuringLoad = 0;
        app = await load(server, size, headers);
      } finally {
        clearInterval(market);
        await bus.close();
        await server.stop();
      }
      ctx.log('B4: bare Koa baseline');
      const bare = await startBareKoaServer(body);
      try {
        baseline = await load(bare, size, {});
      } finally {
        await bare.stop();
      }
    } finally {
      await database.drop();
      await redis.stop();
    }
    const ratio = round(app.perSecond / baseline.perSecond, 3);
    const name = `GET /api/holdings, ${size.holdings} holdings, ${size.connections} connections (${database.kind})`;
    return {
      results: [
        result({
          id: 'B4-throughput',
          name: `${name}: throughput`,
          value: app.perSecond,
          unit: 'req/s',
          baseline: baseline.perSecond,
          ratio,
          target: '≥ 0.5 × baseline',
          pass: ratio >= 0.5,
        }),
        result({
          id: 'B4-p99',
          name: `${name}: latency p99`,
          value: app.p99,
          unit: 'ms',
          baseline: baseline.p99,
          target: '< 50 ms',
          pass: app.p99 < 50,
        }),
      ],
      notes: [
        `B4: ${size.durationS} s measured after ${size.warmupS} s warm-up; autocannon in the bench process, ` +
          `server in its own; ${batchesDuringLoad} full tick batches (${size.instruments} instruments) published during the load; ${size.otherUsers} other users with 20 holdings each in the database; ` +
          `response ${Math.round(JSON.stringify(body).length / 1024)} KB; p50 ${app.p50} ms (app), ${baseline.p50} ms (baseline).`,
      ],
      evidence: { size, holdingsListed: body.data.length, batchesDuringLoad, app, baseline },
    };
  },
};
