/** The parent's handle on a server child (server-child.ts): start it, call it, stop it. */
import { signAccessToken } from '../../server/src/auth/access-token.ts';
import { startChild, type BenchChild } from './child.ts';
import type { SeededUser, SeedUsersPlan, HoldingRow } from './seed.ts';
import type { CrashPlan } from './crash-day.ts';
import type { CrashDayUser, PhoneEndpoints } from './crash-seed.ts';
import type { AppSpec, LoopDelay, ServerSpec, ServerStatus } from './server-child.ts';
import type { BareWsSpec } from './bare-servers.ts';
import { sleep } from './stats.ts';
import { SERVER_NODE_FLAGS } from '../../scripts/server-node-flags.mjs';

/** The key the bench's app servers sign access tokens with, so the bench can mint them too. */
export const BENCH_JWT_SECRET = 'bench-only-secret-never-used-by-a-real-server-0123456789';

export interface ServerHandle {
  url: string;
  /** `postgres` or `pglite` for the app; null for a bare server. */
  database: string | null;
  child: BenchChild;
  status(): Promise<ServerStatus>;
  memory(): Promise<NodeJS.MemoryUsage>;
  /** Polls status until `done` holds; throws after `timeoutMs`. */
  waitFor(done: (s: ServerStatus) => boolean, timeoutMs?: number): Promise<ServerStatus>;
  stop(): Promise<void>;
}

async function startServer(spec: ServerSpec): Promise<ServerHandle> {
  // The production server's Node flags, as `npm start` and the Dockerfile run it.
  const child = startChild('server-child.ts', { NODE_ENV: 'production' }, SERVER_NODE_FLAGS);
  try {
    const started = await child.call<{ url: string; database: string | null }>('start', spec, 120_000);
    const status = () => child.call<ServerStatus>('status');
    return {
      ...started,
      child,
      status,
      memory: () => child.call<NodeJS.MemoryUsage>('memory'),
      async waitFor(done, timeoutMs = 60_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const s = await status();
          if (done(s)) return s;
          if (Date.now() > deadline) throw new Error(`server status still ${JSON.stringify(s)}`);
          await sleep(100);
        }
      },
      stop: () => child.stop(),
    };
  } catch (err) {
    await child.stop();
    throw err;
  }
}

export interface AppServer extends ServerHandle {
  seedUsers(plan: SeedUsersPlan): Promise<SeededUser[]>;
  seedQuotes(symbols: readonly string[]): Promise<void>;
  insertRowByRow(userId: string, rows: readonly HoldingRow[]): Promise<number>;
  countHoldings(userId: string): Promise<number>;
  /** Every tick batch received so far has been evaluated and stored. */
  idle(): Promise<void>;
  /** B8's users, holdings, endpoints and rules (crash-seed.ts); B9's and B10's phones. */
  seedCrashDay(plan: CrashPlan, phones?: PhoneEndpoints): Promise<CrashDayUser[]>;
  /** The event loop's delay since the last reset (`reset` starts a new window). */
  loopDelay(reset: boolean): Promise<LoopDelay>;
}

/** The real server runtime in a child process, without the embedded streamer. */
export async function startAppServer(spec: Omit<AppSpec, 'jwtSecret'>): Promise<AppServer> {
  const handle = await startServer({ kind: 'app', jwtSecret: BENCH_JWT_SECRET, ...spec });
  const call = handle.child.call;
  return {
    ...handle,
    seedUsers: (plan) => call<SeededUser[]>('seedUsers', plan),
    seedQuotes: (symbols) => call<void>('seedQuotes', symbols),
    insertRowByRow: (userId, rows) => call<number>('insertRowByRow', { userId, rows }),
    countHoldings: (userId) => call<number>('countHoldings', userId),
    idle: () => call<void>('idle'),
    seedCrashDay: (plan, phones) => call<CrashDayUser[]>('seedCrashDay', { plan, phones }),
    loopDelay: (reset) => call<LoopDelay>('loopDelay', reset),
  };
}

export const startBareWsServer = (spec: BareWsSpec) => startServer({ kind: 'bare-ws', ...spec });
export const startBareSocketIoServer = (spec: BareWsSpec) => startServer({ kind: 'bare-socket.io', ...spec });
export const startBareKoaServer = (body: unknown) => startServer({ kind: 'bare-koa', body });

/**
 * A 15-minute access token for a seeded user, as demo sign-in would issue: its session is the
 * refresh-token family seedUsers gave the user (the user's id).
 */
export const tokenFor = (userId: string) =>
  signAccessToken({ user: { id: userId, tokenVersion: 0 }, sessionId: userId }, BENCH_JWT_SECRET);
