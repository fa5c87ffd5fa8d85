/**
 * B2: how many sockets one server process holds while delivering a full tick batch to every one
 * of them within a second, and the memory each costs. Sockets are added in steps; at each step
 * three full batches go out and the median time to the last socket must stay ≤ 1 s. Baseline: the
 * same ramp on a bare `ws` server. Reference: the same ramp, up to the memory step, on a bare
 * Socket.IO server, the floor under the app's memory per socket. Clients run in child processes
 * (on the same cores).
 */
import { execFileSync } from 'node:child_process';
import { createRedisBus } from '@app/streamer';
import { pino } from 'pino';
import { publishBatches, startFleet } from '../lib/fleet.ts';
import { plausibleSymbols, tickBatch } from '../lib/market.ts';
import {
  startAppServer,
  startBareSocketIoServer,
  startBareWsServer,
  tokenFor,
  type ServerHandle,
} from '../lib/servers.ts';
import { freshDatabase, startRedisServer } from '../lib/services.ts';
import { max, median, phases } from '../lib/stats.ts';
import { result, round, type BenchContext, type Benchmark } from '../lib/types.ts';

export const B2_SIZES = {
  full: {
    steps: [1000, 2500, 5000, 7500, 10_000, 12_500, 15_000, 17_500, 19_500],
    instruments: 2000,
    perUser: 20,
    batches: 5,
    socketsPerClientProcess: 5000,
    /** Memory per socket is compared at this many sockets (or the largest step both reached). */
    memoryAt: 10_000,
  },
  quick: {
    steps: [20, 50],
    instruments: 200,
    perUser: 20,
    batches: 1,
    socketsPerClientProcess: 5000,
    memoryAt: 50,
  },
};
type Size = (typeof B2_SIZES)['full'];

export interface RampStep {
  sockets: number;
  /** Per batch: sockets that received it, and ms from publish to the last of them. */
  batches: Array<{ received: number; lastMs: number }>;
  /** Median over the step's batches of the time to the last socket. */
  deliveryMs: number;
  /** Growth since no sockets were open, per socket: JS heap + external, and resident set. */
  heapPerSocket: number;
  rssPerSocket: number;
}

export interface Ramp {
  steps: RampStep[];
  /**
   * The largest step whose batches reached every socket within a second (median of the step's
   * batches; 0: none). The ramp goes on past one slow step and stops after two in a row.
   */
  capacity: number;
  /** Why the ramp stopped before its last step, if it did. */
  stoppedBy?: string;
}

export interface B2Evidence {
  size: Size;
  fileLimit: number;
  app: Ramp;
  baseline: Ramp;
  /** Bare Socket.IO, up to the memory step. */
  bareSocketIo: Ramp;
}

/** The hard limit on open files; the children raise their soft limit to it (child.ts). */
function fileLimit(): number {
  const out = execFileSync('sh', ['-c', 'ulimit -Hn']).toString().trim();
  return out === 'unlimited' ? 1_048_576 : Number(out);
}

async function ramp(
  server: ServerHandle & { idle?(): Promise<void> },
  kind: 'socket.io' | 'ws',
  targets: (from: number, to: number) => Array<{ token?: string; user: number }>,
  redisUrl: string,
  symbols: string[],
  size: Size,
  steps: number[],
  log: (m: string) => void,
): Promise<Ramp> {
  const processes = Math.ceil(steps.at(-1)! / size.socketsPerClientProcess);
  const fleet = await startFleet(kind, server.url, processes);
  const bus = createRedisBus(redisUrl, pino({ level: 'warn' }));
  const out: Ramp = { steps: [], capacity: 0 };
  try {
    // A first batch with nobody listening warms the path; then the memory of an idle server.
    await bus.publishBatch(tickBatch(symbols, 0));
    await server.idle?.();
    const idle = await server.memory();
    let open = 0;
    let misses = 0;
    for (const n of steps) {
      const opened = await fleet.connect(targets(open, n));
      if (opened.failed) {
        out.stoppedBy = `${opened.failed} of ${n - open} new sockets failed at ${n}: ${opened.errors.join('; ')}`;
        break;
      }
      open = n;
      await server
        .waitFor((s) => s.sockets >= n && (server.database === null || s.watchedUsers >= n), 120_000)
        .catch(async (err: Error) => {
          throw new Error(`${err.message}; sockets lost: ${JSON.stringify(await fleet.lost())}`);
        });
      const mem = await server.memory();
      // Each step's batches go on from the last one's (new prices: the sockets carry only changes).
      const receipts = await publishBatches(
        bus,
        fleet,
        symbols,
        { count: size.batches, expected: n, intervalMs: 200, timeoutMs: 10_000 },
        1 + out.steps.length * size.batches,
      );
      const batches = receipts.map((r) => ({ received: r.latencies.length, lastMs: max(r.latencies) }));
      const complete = batches.every((b) => b.received === n);
      const step: RampStep = {
        sockets: n,
        batches,
        deliveryMs: complete ? median(batches.map((b) => b.lastMs)) : Infinity,
        heapPerSocket: round((mem.heapUsed + mem.external - idle.heapUsed - idle.external) / n, 0),
        rssPerSocket: round((mem.rss - idle.rss) / n, 0),
      };
      out.steps.push(step);
      log(
        `B2 ${kind}: ${n} sockets, last socket after ${step.deliveryMs} ms, ${step.heapPerSocket} B heap/socket`,
      );
      if (step.deliveryMs <= 1000) {
        out.capacity = n;
        misses = 0;
      } else if (++misses === 2 || step.deliveryMs > 2000) {
        // One slow step may be a burst of other work on the machine; two in a row are the limit.
        out.stoppedBy = `a full batch took ${step.deliveryMs} ms to reach ${n} sockets`;
        break;
      }
    }
    return out;
  } finally {
    await bus.close();
    await fleet.stop();
  }
}

const memoryLine = (r: Ramp, at: number) => r.steps.find((s) => s.sockets === at);

export const b2: Benchmark<B2Evidence> = {
  id: 'B2',
  title: 'Sockets per server process, and memory per socket',
  async run(ctx: BenchContext) {
    const size = ctx.quick ? B2_SIZES.quick : B2_SIZES.full;
    const limit = fileLimit();
    // The server needs a few dozen files besides its sockets (Redis, database, its own modules).
    const steps = size.steps.filter((n) => n <= limit - 200);
    const symbols = plausibleSymbols(size.instruments);
    const database = await freshDatabase(ctx.postgresUrl);
    const appRamp = async () => {
      const redis = await startRedisServer();
      const server = await startAppServer({ redisUrl: redis.url, databaseUrl: database.url }).catch(
        async (err: unknown) => {
          await redis.stop();
          throw err;
        },
      );
      try {
        const plan = { tag: 'b2', count: steps.at(-1)!, perUser: size.perUser, symbols };
        const users = await server.seedUsers(plan);
        // Tokens are minted per step: an access token lives 15 minutes.
        const targets = (from: number, to: number) =>
          users.slice(from, to).map((u) => ({ token: tokenFor(u.id), user: u.ordinal }));
        return await ramp(server, 'socket.io', targets, redis.url, symbols, size, steps, ctx.log);
      } finally {
        await server.stop();
        await redis.stop();
      }
    };
    const bareRamp = async (kind: 'ws' | 'socket.io', upTo: number[]) => {
      const redis = await startRedisServer();
      const spec = { redisUrl: redis.url, symbols, perUser: size.perUser };
      const bare = await (kind === 'ws' ? startBareWsServer(spec) : startBareSocketIoServer(spec)).catch(
        async (err: unknown) => {
          await redis.stop();
          throw err;
        },
      );
      try {
        const targets = (from: number, to: number) =>
          Array.from({ length: to - from }, (_, i) => ({ user: from + i }));
        return await ramp(bare, kind, targets, redis.url, symbols, size, upTo, ctx.log);
      } finally {
        await bare.stop();
        await redis.stop();
      }
    };
    let app: Ramp;
    let baseline: Ramp;
    let bareSocketIo: Ramp;
    try {
      ctx.log(
        `B2: app server (${database.kind}, Redis), then bare ws, then bare Socket.IO; up to ${steps.at(-1)} sockets`,
      );
      [app, baseline, bareSocketIo] = await phases<[Ramp, Ramp, Ramp]>(
        ctx.quick,
        appRamp,
        () => bareRamp('ws', steps),
        () =>
          bareRamp(
            'socket.io',
            steps.filter((n) => n <= size.memoryAt),
          ),
      );
    } finally {
      await database.drop();
    }
    const common = Math.max(
      0,
      ...app.steps
        .filter((s) => s.sockets <= size.memoryAt && memoryLine(baseline, s.sockets))
        .map((s) => s.sockets),
    );
    const appMem = memoryLine(app, common);
    const baseMem = memoryLine(baseline, common);
    const socketIoMem = memoryLine(bareSocketIo, common);
    const kb = (bytes: number | undefined) => (bytes === undefined ? null : round(bytes / 1024, 1));
    const capped =
      steps.length < size.steps.length ? ` (the ramp stops at ${steps.at(-1)}: open files ≤ ${limit})` : '';
    const describe = (r: Ramp) =>
      r.steps
        .map(
          (s) =>
            `${s.sockets}: ${s.deliveryMs} ms, ${kb(s.heapPerSocket)} KB heap, ${kb(s.rssPerSocket)} KB RSS`,
        )
        .join('; ') + (r.stoppedBy ? `; stopped: ${r.stoppedBy}` : '');
    return {
      results: [
        result({
          id: 'B2-sockets',
          name: `Sockets one process holds with a full batch to all within 1 s${capped}`,
          value: app.capacity,
          unit: 'sockets',
          baseline: baseline.capacity,
          target: '≥ 10,000',
          pass: app.capacity >= 10_000,
        }),
        result({
          id: 'B2-memory',
          name: `Memory per socket at ${common} sockets (JS heap + external, after GC)`,
          value: kb(appMem?.heapPerSocket),
          unit: 'KB',
          baseline: kb(baseMem?.heapPerSocket),
          target: '≤ 2 × bare ws',
          pass:
            appMem !== undefined &&
            baseMem !== undefined &&
            appMem.heapPerSocket <= 2 * baseMem.heapPerSocket,
        }),
        result({
          id: 'B2-memory-socket.io',
          name: `Memory per socket at ${common} sockets, bare Socket.IO (the Socket.IO interface the client and server share), against bare ws`,
          value: kb(socketIoMem?.heapPerSocket),
          unit: 'KB',
          baseline: kb(baseMem?.heapPerSocket),
          target: 'reported (the floor under B2-memory)',
          pass: true,
        }),
      ],
      notes: [
        `B2: ${database.kind}; ${size.batches} full batches per step (median of the time to the last socket); ` +
          `each socket a different user holding ${size.perUser} of ${size.instruments} instruments; ` +
          `open-file limit ${limit}.`,
        `B2 app ramp: ${describe(app)}.`,
        `B2 bare ws ramp: ${describe(baseline)}.`,
        `B2 bare Socket.IO ramp: ${describe(bareSocketIo)}.`,
      ],
      evidence: { size, fileLimit: limit, app, baseline, bareSocketIo },
    };
  },
};
