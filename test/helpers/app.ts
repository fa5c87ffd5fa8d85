/** Boots the real server runtime on a random port against the run's database. */
import { randomUUID } from 'node:crypto';
import { parseConfig } from '@app/config';
import { pino, type Logger } from 'pino';
import type { DeliveryOverrides } from '../../server/src/deliveries/index.ts';
import type { DatabaseHandle } from '../../server/src/db/client.ts';
import { startServerRuntime, type RuntimeOptions, type ServerRuntime } from '../../server/src/runtime.ts';
import { apiClient } from './http.ts';
import { testServices } from './root-hooks.ts';
import { madeBefore } from './made-before.ts';
import { createFreshDatabase } from './services.ts';

export const TEST_JWT_SECRET = 'test-secret-that-is-at-least-32-characters-long';

export interface TestApp {
  url: string;
  runtime: ServerRuntime;
  close(): Promise<void>;
}

export interface BootOptions {
  env?: Record<string, string | undefined>;
  googleCertsUrl?: string;
  /** Use Redis (the run's server) for the bus, rate limits and the socket adapter. */
  withRedis?: boolean;
  clientDist?: string;
  /** Run the streamer in-process (default: only without Redis); false to publish batches by hand. */
  embeddedStreamer?: boolean;
  /** Share another app's open database (two instances on one database). */
  database?: DatabaseHandle;
  /**
   * A database of the app's own, dropped when it closes (with a PostgreSQL server; on PGlite
   * every app has its own anyway): for a test that must not see what earlier files of its worker
   * stored, such as their instruments' quotes or their deliveries still in the outbox.
   */
  ownDatabase?: boolean;
  /** Delivery worker tunables (short back-off in tests). */
  delivery?: DeliveryOverrides;
  /** How often the app looks for a symbol sync by another process (default a minute). */
  instrumentRefreshMs?: number;
  /** A logger of the test's own (to read what the server logs). */
  log?: Logger;
  /** Rules engine tunables (claim chunk size, …). */
  rulesEngine?: RuntimeOptions['rulesEngine'];
  /** The app's clock (`AppDeps.now`): ex-dates, evening digests, when levels, alert prices and lots are set. */
  now?: () => Date;
  /** Run the evening digest job on its minute timer (default off: only the digest tests want it). */
  digestTimer?: boolean;
  /** How often the app looks for due corporate actions (default a minute). */
  corporateActionsIntervalMs?: number;
  /** Senders of the test's own (a fake channel), added to the configured ones. */
  senders?: RuntimeOptions['senders'];
}

/**
 * BullMQ prefix per database: apps sharing a database share the alert queue; apps on
 * different databases (PGlite) never take each other's jobs from the run's one Redis.
 */
const queuePrefixes = new WeakMap<DatabaseHandle, string>();

export async function bootApp(options: BootOptions = {}): Promise<TestApp> {
  const services = testServices();
  const own =
    options.ownDatabase && services.databaseUrl ? await createFreshDatabase(services.databaseUrl) : undefined;
  try {
    const app = await bootOn(own?.url ?? services.databaseUrl, options);
    if (!own) return app;
    return {
      ...app,
      close: async () => {
        await app.close();
        await own.drop();
      },
    };
  } catch (err) {
    await own?.drop();
    throw err;
  }
}

async function bootOn(databaseUrl: string | undefined, options: BootOptions): Promise<TestApp> {
  const services = testServices();
  const config = parseConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: 'memory://',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    JWT_SECRET: TEST_JWT_SECRET,
    DATABASE_URL: databaseUrl,
    REDIS_URL: options.withRedis ? services.redisUrl : undefined,
    QUOTE_INTERVAL_MS: '1000',
    TRUST_PROXY: 'true',
    ...options.env,
  });
  const queuePrefix =
    (options.database && queuePrefixes.get(options.database)) ?? `test-${randomUUID().slice(0, 8)}`;
  const runtime = await startServerRuntime(config, {
    log: options.log ?? pino({ level: config.LOG_LEVEL }),
    googleCertsUrl: options.googleCertsUrl,
    clientDist: options.clientDist,
    embeddedStreamer: options.embeddedStreamer,
    database: options.database,
    delivery: { queuePrefix, ...options.delivery },
    instrumentRefreshMs: options.instrumentRefreshMs,
    rulesEngine: options.rulesEngine,
    // Apps on one database share the batch owner lease; apps on others never wait for it.
    batchOwner: { key: `${queuePrefix}:batch-owner` },
    now: options.now,
    corporateActionsIntervalMs: options.corporateActionsIntervalMs,
    senders: options.senders,
    digestTimer: options.digestTimer ?? false,
    brokerSyncTimer: false,
    historyTimers: false,
  });
  queuePrefixes.set(runtime.deps.database, queuePrefix);
  return { url: runtime.url, runtime, close: () => runtime.close() };
}

/** Boot options, or a function giving them when the app boots (after the hooks before it). */
export type SuiteOptions = BootOptions | (() => BootOptions);

/**
 * The opening of an API test suite, called in its `describe`: one app booted with `options`
 * before the tests and closed after them (after `cleanUp`, when given), and a client bound to it.
 */
export function appSuite(options: SuiteOptions = {}, cleanUp?: () => Promise<void>) {
  let booted: TestApp | undefined;
  const app = madeBefore('the suite app', () => booted);
  before(async () => {
    booted = await bootApp(typeof options === 'function' ? options() : options);
  });
  after(async () => {
    if (!booted) return;
    await cleanUp?.();
    await booted.close();
  });
  return { app, api: apiClient(() => app.url) };
}
