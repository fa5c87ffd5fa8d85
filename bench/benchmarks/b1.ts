/**
 * B1: latency from tick-batch publish to receipt in socket.io-client, p50 and p99, for signed-in
 * sockets each holding 20 of 2,000 instruments; one server process, Redis between the streamer
 * (this process) and the server. Baseline: the same per-user payloads from a bare `ws` server fed
 * by a Redis subscriber. App and baseline run side by side (each on its own Redis) and take
 * turns batch by batch, so a burst of load on the machine hits both alike.
 */
import { createRedisBus, type MarketBus } from '@app/streamer';
import { pino } from 'pino';
import type { BatchReceipts } from '../lib/client-child.ts';
import { publishBatches, startFleet, type Fleet } from '../lib/fleet.ts';
import { plausibleSymbols } from '../lib/market.ts';
import {
  startAppServer,
  startBareWsServer,
  tokenFor,
  type AppServer,
  type ServerHandle,
} from '../lib/servers.ts';
import { freshDatabase, startRedisServer, type RedisServer } from '../lib/services.ts';
import { max, median, percentile } from '../lib/stats.ts';
import { result, round, type BenchContext, type Benchmark } from '../lib/types.ts';

export const B1_SIZES = {
  full: {
    sockets: 1000,
    instruments: 2000,
    perUser: 20,
    warmup: 3,
    batches: 30,
    intervalMs: 500,
    clients: 2,
  },
  quick: { sockets: 20, instruments: 200, perUser: 20, warmup: 1, batches: 2, intervalMs: 50, clients: 1 },
};
type Size = (typeof B1_SIZES)['full'];

export interface LatencyRun {
  /** Sockets that connected. */
  sockets: number;
  /** Measured batches (after the warm-up), each with every socket's receipt. */
  receipts: BatchReceipts[];
  latencies: number[];
}

export interface B1Evidence {
  size: Size;
  app: LatencyRun;
  baseline: LatencyRun;
}

/** One side of the comparison: a server, its own Redis and bus, and its clients. */
interface Side {
  redis: RedisServer;
  bus?: MarketBus;
  server?: ServerHandle;
  fleet?: Fleet;
  sockets: number;
  receipts: BatchReceipts[];
}

async function connectSide(
  side: Side,
  kind: 'socket.io' | 'ws',
  targets: Array<{ token?: string; user: number }>,
  size: Size,
) {
  side.fleet = await startFleet(kind, side.server!.url, size.clients);
  const opened = await side.fleet.connect(targets);
  if (opened.failed) throw new Error(`${opened.failed} ${kind} sockets failed: ${opened.errors.join('; ')}`);
  side.sockets = opened.opened;
  side.bus = createRedisBus(side.redis.url, pino({ level: 'warn' }));
}

async function closeSide(side: Side) {
  await side.bus?.close();
  await side.fleet?.stop();
  await side.server?.stop();
  await side.redis.stop();
}

/** Median over batches of the first and the last socket's latency: the fixed part and the fan-out. */
export function spread(run: LatencyRun): string {
  const first = median(run.receipts.map((r) => Math.min(...r.latencies)));
  const last = median(run.receipts.map((r) => max(r.latencies)));
  return `first socket ${first} ms, last ${last} ms`;
}

const asRun = (side: Side): LatencyRun => ({
  sockets: side.sockets,
  receipts: side.receipts,
  latencies: side.receipts.flatMap((r) => r.latencies),
});

export const b1: Benchmark<B1Evidence> = {
  id: 'B1',
  title: 'Tick batch to socket.io-client latency',
  async run(ctx: BenchContext) {
    const size = ctx.quick ? B1_SIZES.quick : B1_SIZES.full;
    const symbols = plausibleSymbols(size.instruments);
    const database = await freshDatabase(ctx.postgresUrl);
    const [redisA, redisB] = await Promise.all([startRedisServer(), startRedisServer()]);
    const app: Side = { redis: redisA, sockets: 0, receipts: [] };
    const bare: Side = { redis: redisB, sockets: 0, receipts: [] };
    try {
      ctx.log(`B1: app server (${database.kind}, Redis) and bare ws server, ${size.sockets} sockets each`);
      const setUpApp = async () => {
        const server = await startAppServer({ redisUrl: app.redis.url, databaseUrl: database.url });
        app.server = server;
        const plan = { tag: 'b1', count: size.sockets, perUser: size.perUser, symbols };
        const users = await server.seedUsers(plan);
        await connectSide(
          app,
          'socket.io',
          users.map((u) => ({ token: tokenFor(u.id), user: u.ordinal })),
          size,
        );
        // The fan-out loads each user's instruments on connect; wait until it knows them all.
        await server.waitFor((s) => s.watchedUsers >= size.sockets);
      };
      const setUpBare = async () => {
        bare.server = await startBareWsServer({ redisUrl: bare.redis.url, symbols, perUser: size.perUser });
        await connectSide(
          bare,
          'ws',
          Array.from({ length: size.sockets }, (_, user) => ({ user })),
          size,
        );
      };
      for (const setUp of await Promise.allSettled([setUpApp(), setUpBare()]))
        if (setUp.status === 'rejected') throw setUp.reason;

      const turn = async (side: Side, seq: number, keep: boolean) => {
        const run = { count: 1, expected: size.sockets, intervalMs: size.intervalMs, timeoutMs: 10_000 };
        const receipts = await publishBatches(side.bus!, side.fleet!, symbols, run, seq);
        if (keep) side.receipts.push(...receipts);
      };
      for (let i = 0; i < size.warmup + size.batches; i++) {
        await turn(app, i, i >= size.warmup);
        await turn(bare, i, i >= size.warmup);
      }
      await (app.server as AppServer).idle();
    } finally {
      await Promise.all([closeSide(app), closeSide(bare)]);
      await database.drop();
    }
    const appRun = asRun(app);
    const baseRun = asRun(bare);
    const [p50, p99] = [50, 99].map((p) => round(percentile(appRun.latencies, p))) as [number, number];
    const [b50, b99] = [50, 99].map((p) => round(percentile(baseRun.latencies, p))) as [number, number];
    const name = `${size.sockets} sockets × ${size.perUser} of ${size.instruments} instruments`;
    return {
      results: [
        result({
          id: 'B1-p50',
          name: `Batch → socket latency p50 (${name})`,
          value: p50,
          unit: 'ms',
          baseline: b50,
          target: 'reported (p99 carries the target)',
          pass: true,
        }),
        result({
          id: 'B1-p99',
          name: `Batch → socket latency p99 (${name})`,
          value: p99,
          unit: 'ms',
          baseline: b99,
          target: '≤ 1.5 × baseline and < 100 ms',
          pass: p99 <= 1.5 * b99 && p99 < 100,
        }),
      ],
      notes: [
        `B1: ${database.kind}; ${size.batches} measured batches each after ${size.warmup} warm-up, app and ` +
          `baseline taking turns ${size.intervalMs} ms apart; ${size.clients} client process(es) per side on ` +
          `the same cores; ${appRun.latencies.length} app and ${baseRun.latencies.length} baseline receipts; ` +
          `worst ${max(appRun.latencies)} ms (app), ${max(baseRun.latencies)} ms (baseline); per batch ` +
          `(median): app ${spread(appRun)}; baseline ${spread(baseRun)}.`,
      ],
      evidence: { size, app: appRun, baseline: baseRun },
    };
  },
};
