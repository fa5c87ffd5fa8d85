/**
 * The run's services: a fresh database (on the PostgreSQL server of DATABASE_URL when it is set,
 * else each app has PGlite) and a Redis (REDIS_URL, or a redis-server started here).
 *
 * Serial run (`npx mocha FILE`, the serial part of `npm test`): started before the first file and
 * stopped after the last. Parallel run (`mocha --parallel`): mocha runs the root hooks in every
 * worker process for every file, so a worker starts its own services on its first file and keeps
 * them for the files after it. A database and a Redis per worker keep files in different workers
 * from seeing each other's rows, keys and pub/sub channels. A worker is ended by the pool without
 * a hook, so it writes what it started into the run's registry (a directory made by
 * `mochaGlobalSetup` in the main process) and `mochaGlobalTeardown` drops and stops them.
 */
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { closeTestContexts, noteOpenContexts } from './open-contexts.ts';
import { createFreshDatabase, dropDatabase, startRedisServer } from './services.ts';
import { sharedDataNotice } from './shared-data.ts';
import { failOnUnhandledRejections, watchUnhandledRejections } from './unhandled.ts';

interface TestServices {
  /** A fresh database of this run on the PostgreSQL server, or undefined for PGlite. */
  databaseUrl?: string;
  redisUrl: string;
}

/** What a parallel worker started, for the main process to drop and stop at the end. */
interface WorkerServices {
  databaseName?: string;
  redisPid?: number;
}

let services: TestServices | undefined;
let starting: Promise<TestServices> | undefined;
let cleanup: Array<() => Promise<void>> = [];

export function testServices(): TestServices {
  if (!services) throw new Error('test services are not started (root hooks not loaded)');
  return services;
}

/** True in a `--parallel` worker: the main process that ran the global setup is another one. */
function inParallelWorker(): boolean {
  const runner = process.env.TEST_RUN_PID;
  return runner !== undefined && runner !== String(process.pid);
}

async function startServices(worker: boolean): Promise<TestServices> {
  const started: WorkerServices = {};
  let databaseUrl: string | undefined;
  if (process.env.DATABASE_URL) {
    const db = await createFreshDatabase(process.env.DATABASE_URL);
    databaseUrl = db.url;
    started.databaseName = db.name;
    cleanup.push(db.drop);
  }
  let redisUrl = process.env.REDIS_URL;
  if (!redisUrl) {
    const redis = await startRedisServer();
    redisUrl = redis.url;
    started.redisPid = redis.pid();
    cleanup.push(redis.stop);
    // A worker's redis-server would outlive it; the pool ends workers without an afterAll.
    if (worker) process.once('exit', () => redis.pid() && process.kill(redis.pid()!, 'SIGKILL'));
  }
  const registry = process.env.TEST_SERVICES_REGISTRY;
  if (worker && registry) {
    writeFileSync(path.join(registry, `${process.pid}.json`), JSON.stringify(started));
  }
  return { databaseUrl, redisUrl };
}

/** When TEST_TIMES names a file, each test file's wall time is appended to it (seconds, path). */
let fileStarted = 0;

function recordFileTime(context: Mocha.Context): void {
  const times = process.env.TEST_TIMES;
  const file = context.test?.parent?.suites[0]?.file;
  if (!times || !file) return;
  const seconds = ((Date.now() - fileStarted) / 1000).toFixed(1);
  appendFileSync(times, `${seconds} ${path.relative(process.cwd(), file)}\n`);
}

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    fileStarted = Date.now();
    this.timeout(60_000);
    starting ??= startServices(inParallelWorker());
    services = await starting;
  },
  beforeEach() {
    watchUnhandledRejections();
    noteOpenContexts();
  },
  async afterEach() {
    await closeTestContexts();
    failOnUnhandledRejections();
  },
  async afterAll(this: Mocha.Context) {
    recordFileTime(this);
    // A worker keeps its services for its next file; the global teardown ends them.
    if (inParallelWorker()) return;
    this.timeout(30_000);
    for (const fn of cleanup.reverse()) await fn().catch((err) => console.error('cleanup failed:', err));
    cleanup = [];
    services = undefined;
    starting = undefined;
  },
};

/**
 * Main process, before any file: the registry the parallel workers write to, and the run's one
 * line when `../shared` is absent (`npm test` runs mocha twice and says it once: TEST_SHARED_NOTED).
 */
export function mochaGlobalSetup() {
  const notice = sharedDataNotice();
  if (notice && !process.env.TEST_SHARED_NOTED) console.log(notice);
  process.env.TEST_RUN_PID = String(process.pid);
  process.env.TEST_SERVICES_REGISTRY = mkdtempSync(path.join(tmpdir(), 'pg-test-services-'));
}

/** Main process, after the last file: drops the workers' databases and stops their Redis. */
export async function mochaGlobalTeardown() {
  const registry = process.env.TEST_SERVICES_REGISTRY;
  if (!registry) return;
  for (const file of readdirSync(registry)) {
    const started = JSON.parse(readFileSync(path.join(registry, file), 'utf8')) as WorkerServices;
    if (started.redisPid) stopProcess(started.redisPid);
    if (started.databaseName && process.env.DATABASE_URL) {
      await dropDatabase(process.env.DATABASE_URL, started.databaseName).catch((err) =>
        console.error(`could not drop ${started.databaseName}:`, err),
      );
    }
  }
  rmSync(registry, { recursive: true, force: true });
}

function stopProcess(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch (err) {
    // Already gone (its worker's exit handler stopped it): nothing left to stop.
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}
