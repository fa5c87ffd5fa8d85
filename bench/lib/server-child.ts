/**
 * A server under test, alone in its process: the real app (startServerRuntime, as bootApp
 * does, without the embedded streamer), a bare `ws` or Socket.IO server or a bare Koa route. Started by
 * servers.ts; answers its calls (seed, status, memory, ...) over IPC.
 */
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';
import { parseConfig } from '@app/config';
import { pino } from 'pino';
import { createWebPushSender } from '../../server/src/channels/webpush/sender.ts';
import { startServerRuntime, type RuntimeOptions, type ServerRuntime } from '../../server/src/runtime.ts';
import {
  startBareKoa,
  startBareSocketIo,
  startBareWs,
  type BareServer,
  type BareWsSpec,
} from './bare-servers.ts';
import { serveParent, settledMemory } from './child.ts';
import type { CrashPlan } from './crash-day.ts';
import { seedCrashDay, type PhoneEndpoints } from './crash-seed.ts';
import {
  countHoldings,
  insertRowByRow,
  seedQuotes,
  seedUsers,
  type HoldingRow,
  type SeedUsersPlan,
} from './seed.ts';

export interface AppSpec {
  jwtSecret: string;
  redisUrl?: string;
  /** PostgreSQL; PGlite when absent. */
  databaseUrl?: string;
  /** PGlite's DATA_DIR; in memory when absent. */
  dataDir?: string;
  logLevel?: string;
  /** More configuration variables (SENDGRID_API_KEY and SENDGRID_API_URL of a fake, ...). */
  env?: Record<string, string>;
  /** The delivery queue's key prefix: instances of one deployment share it (default: one per process). */
  queuePrefix?: string;
  /** How the engine fires, and who owns the batches (B8's baseline pins the path before #18). */
  rulesEngine?: RuntimeOptions['rulesEngine'];
  batchOwner?: RuntimeOptions['batchOwner'];
  /**
   * The certificate of a local push service (B9, B10: the tests' fake) for the Web Push sender
   * to trust, private addresses allowed: TLS stays on, as in production.
   */
  pushCa?: string;
}

export type ServerSpec =
  | ({ kind: 'app' } & AppSpec)
  | ({ kind: 'bare-ws' } & BareWsSpec)
  | ({ kind: 'bare-socket.io' } & BareWsSpec)
  | { kind: 'bare-koa'; body: unknown };

export interface ServerStatus {
  /** Open sockets (engine.io clients, or ws connections). */
  sockets: number;
  /** Users the quote fan-out knows the instruments of (app only). */
  watchedUsers: number;
  /** Active rules in the engine's index (app only). */
  rules: number;
}

/** The event loop's delay since the last reset (milliseconds), and the heap now. */
export interface LoopDelay {
  p99: number;
  max: number;
  mean: number;
  heapUsedMB: number;
}

/**
 * How late the event loop runs (perf_hooks, 10 ms resolution), from the start: B8 reads it
 * over a crash (a stalled loop delays every socket, request and timer of the process).
 */
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

let app: ServerRuntime | undefined;
let bare: BareServer | undefined;

async function startApp(spec: AppSpec) {
  const config = parseConfig({
    NODE_ENV: 'production',
    DEMO_MODE: 'true',
    DEMO_MODE_PUBLIC_OK: 'true',
    // The benches measure the API's own speed (B4: one user, 100 connections), not its defence.
    USER_READS_PER_MINUTE: '1000000',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: spec.dataDir ?? 'memory://',
    LOG_LEVEL: spec.logLevel ?? 'warn',
    JWT_SECRET: spec.jwtSecret,
    DATABASE_URL: spec.databaseUrl,
    REDIS_URL: spec.redisUrl,
    ...spec.env,
  });
  app = await startServerRuntime(config, {
    log: pino({ level: config.LOG_LEVEL }),
    embeddedStreamer: false,
    delivery: { queuePrefix: spec.queuePrefix ?? `bench-${randomUUID().slice(0, 8)}` },
    rulesEngine: spec.rulesEngine,
    batchOwner: spec.batchOwner,
    // As in every in-process test app: a run after 16:00 IST on a trading day would otherwise
    // record evening digests (History rows, emails) in the middle of what it measures.
    digestTimer: false,
    // Nor may the after-close broker sync take B11's account's sync lease in the middle of a round.
    brokerSyncTimer: false,
    senders: spec.pushCa
      ? (deps) => [
          createWebPushSender({
            vapid: deps.vapid,
            log: deps.log,
            allowPrivateEndpoints: true,
            ca: spec.pushCa,
          }),
        ]
      : undefined,
  });
  return { url: app.url, database: app.deps.database.kind };
}

const running = () => {
  if (!app) throw new Error('not an app server');
  return app;
};

serveParent(
  {
    async start(spec: ServerSpec) {
      if (spec.kind === 'app') return startApp(spec);
      bare =
        spec.kind === 'bare-ws'
          ? await startBareWs(spec)
          : spec.kind === 'bare-socket.io'
            ? await startBareSocketIo(spec)
            : await startBareKoa(spec.body);
      return { url: bare.url, database: null };
    },
    status(): ServerStatus {
      if (bare) return { sockets: bare.clients(), watchedUsers: 0, rules: 0 };
      const runtime = running();
      return {
        sockets: runtime.io.engine.clientsCount,
        watchedUsers: runtime.fanout.localUsers(),
        rules: runtime.engine.stats().rules,
      };
    },
    memory: () => settledMemory(),
    /** The event loop's delay since the last reset; `reset` starts a new window. */
    loopDelay(reset: boolean): LoopDelay {
      const ms = (ns: number) => Math.round(ns / 1e4) / 100;
      const out = {
        p99: ms(loopDelay.percentile(99)),
        max: ms(loopDelay.max),
        mean: ms(loopDelay.mean),
        heapUsedMB: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
      };
      if (reset) loopDelay.reset();
      return out;
    },
    /** Writes a V8 heap snapshot (to see what a socket costs); returns its path. */
    heapSnapshot: (file: string) => writeHeapSnapshot(file),
    /** Resolves when every tick batch received so far is evaluated and stored. */
    idle: () => running().pipeline.idle(),
    seedUsers: (plan: SeedUsersPlan) => seedUsers(running().deps.db, plan),
    seedQuotes: (symbols: string[]) => seedQuotes(running().deps.db, symbols),
    seedCrashDay: (a: { plan: CrashPlan; phones?: PhoneEndpoints }) =>
      seedCrashDay(running().deps.db, a.plan, a.phones),
    insertRowByRow: (a: { userId: string; rows: HoldingRow[] }) =>
      insertRowByRow(running().deps.db, a.userId, a.rows),
    countHoldings: (userId: string) => countHoldings(running().deps.db, userId),
  },
  async () => {
    await app?.close();
    await bare?.close();
  },
);
