/**
 * Shared steps of the process-level reliability tests: a fresh PostgreSQL database, the services
 * and env of a cluster of server and streamer processes, replay files, seeded quotes, users with rules, and waiting.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AlertExecution } from '@app/common/realtime/events';
import pg from 'pg';
import { apiClient } from '../../helpers/http.ts';
import { madeBefore } from '../../helpers/made-before.ts';
import { startProcess, waitHealthy, type RunningProcess } from '../../helpers/processes.ts';
import { createFreshDatabase, freePort, startRedisServer, type RedisServer } from '../../helpers/services.ts';
import { connected, connectSocket, type TestSocket } from '../../helpers/sockets.ts';
import { startMailProvider, type MailProvider } from './mail-provider.ts';

export const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
export const JWT_SECRET = 'reliability-test-secret-that-is-long-enough-42';

/** `npm run test:soak` sets SOAK=1: the long forms (10 s outages, real lock expiry). */
export const LONG_FORM = process.env.SOAK === '1';

export { sleep, waitFor } from '../../helpers/wait.ts';

export interface TestDatabase {
  url: string;
  pool: pg.Pool;
  query<R extends pg.QueryResultRow = Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ): Promise<R[]>;
  drop(): Promise<void>;
}

/**
 * A database of its own on the PostgreSQL server of DATABASE_URL (or the local one): processes
 * that SIGKILL, restart and share it need a real server, and counting rows needs no neighbours.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = process.env.DATABASE_URL ?? LOCAL_POSTGRES;
  const fresh = await createFreshDatabase(base).catch((err: Error) => {
    throw new Error(
      `this test needs a PostgreSQL server (DATABASE_URL or ${LOCAL_POSTGRES}): ${err.message}`,
    );
  });
  const pool = new pg.Pool({ connectionString: fresh.url, max: 3 });
  pool.on('error', () => undefined);
  return {
    url: fresh.url,
    pool,
    query: async (text, values) => (await pool.query(text, values)).rows,
    drop: async () => {
      await pool.end();
      await fresh.drop();
    },
  };
}

/**
 * Called in a `describe`: a database of its own (`createTestDatabase`) for its tests and hooks,
 * dropped after them.
 */
export function testDatabaseSuite(): TestDatabase {
  let created: TestDatabase | undefined;
  before(async () => {
    created = await createTestDatabase();
  });
  after(async () => {
    await created?.drop();
  });
  return madeBefore('the database', () => created);
}

/** A temporary folder for replay files and DATA_DIR; removed by `remove()`. */
export function tempDir(prefix: string): {
  dir: string;
  file(name: string, text: string): string;
  remove(): void;
} {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return {
    dir,
    file(name, text) {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      return file;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Writes latest quotes straight into the database: rules are armed from them. */
export async function seedQuotes(db: TestDatabase, prices: Record<string, number>): Promise<void> {
  for (const [symbol, ltp] of Object.entries(prices)) {
    await db.query(
      `insert into quotes (exchange, symbol, ltp, prev_close, as_of) values ('NSE', $1, $2, 1000, now())
       on conflict (exchange, symbol) do update set ltp = excluded.ltp, as_of = excluded.as_of`,
      [symbol, ltp],
    );
  }
}

export interface ServerProcess {
  url: string;
  port: number;
  proc: RunningProcess;
}

/** Starts `npm start`'s entry (server/src/main.ts) on a free port and waits for /api/health. */
export async function startServerProcess(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  const p = port ?? (await freePort());
  const proc = startProcess('server/src/main.ts', { ...env, PORT: String(p), HOST: '127.0.0.1' });
  const url = `http://127.0.0.1:${p}`;
  await waitHealthy(`${url}/api/health`, proc, 60_000);
  return { url, port: p, proc };
}

/**
 * Two server processes on `env`, one after the other: the first applies the migrations, the
 * second starts on a migrated database. Each goes onto `servers` once it is up, for the `after`
 * hook that stops them.
 */
export async function startServerPair(env: Record<string, string>, servers: ServerProcess[]): Promise<void> {
  servers.push(await startServerProcess(env));
  servers.push(await startServerProcess(env));
}

/** `npm run streamer`'s entry. */
export function startStreamerProcess(env: Record<string, string>): RunningProcess {
  return startProcess('streamer/src/main.ts', env);
}

/** The last lines a process wrote, for failure messages. */
export function tail(proc: RunningProcess, lines = 40): string {
  return proc.output().trim().split('\n').slice(-lines).join('\n');
}

/**
 * Called in a `describe`: after a failed test, prints the last lines of each server and streamer
 * that `processes()` names, for the failure's context.
 */
export function printTailsOnFailure(
  processes: () => {
    servers?: Array<ServerProcess | undefined>;
    streamers?: Array<RunningProcess | undefined>;
  },
): void {
  afterEach(function () {
    if (this.currentTest?.state !== 'failed') return;
    const { servers = [], streamers = [] } = processes();
    for (const s of servers) if (s) console.log(`--- server :${s.port} ---\n${tail(s.proc, 40)}`);
    for (const s of streamers) if (s) console.log(`--- streamer ---\n${tail(s, 20)}`);
  });
}

export interface Investor {
  id: string;
  email: string;
  token: string;
  refreshToken: string;
}

/**
 * Demo sign-in through `url` (each from its own address, so sign-in limits stay out of the way),
 * with the evening digest turned off as a user would (Settings): these tests count alert emails
 * and History rows, and a server running after 16:00 IST on a trading day would add a digest of
 * each user to both. (test/server/digest tests the digest on a test clock.)
 */
export async function signInAt(url: string): Promise<Investor> {
  const email = `rel-${randomUUID().slice(0, 8)}@example.com`;
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, name: 'Reliability Investor' }),
  });
  const body = (await res.json()) as {
    data?: { token: string; refresh_token: string; user: { id: string } };
    error?: string;
  };
  if (res.status !== 200 || !body.data) throw new Error(`sign-in failed: ${res.status} ${body.error}`);
  const settings = await apiClient(url).put('/api/settings', { evening_digest: false }, body.data.token);
  if (settings.status !== 200) throw new Error(`settings: ${settings.status} ${settings.body.error}`);
  return { id: body.data.user.id, email, token: body.data.token, refreshToken: body.data.refresh_token };
}

export interface ArmedStop {
  id: string;
  symbol: string;
  computed_trigger_price: number;
}

/** Holds each symbol (one upload) and arms a fixed stop loss of `percent` on each. */
export async function armStops(
  url: string,
  user: Investor,
  symbols: string[],
  percent = 5,
): Promise<ArmedStop[]> {
  const api = apiClient(url);
  const csvData = `Symbol,Quantity,Buy Price\n${symbols.map((s) => `${s},1,900`).join('\n')}\n`;
  const upload = await api.post('/api/holdings/upload-csv', { csvData }, user.token);
  if (upload.status !== 201) throw new Error(`upload: ${upload.status} ${upload.body.error}`);
  const rules = symbols.map((symbol) => ({
    symbol,
    trigger_type: 'FIXED_STOP_LOSS',
    trigger_value: percent,
  }));
  const res = await api.post<{ rules: ArmedStop[] }>('/api/position-rules/bulk', { rules }, user.token);
  if (res.status !== 201 || !res.body.data) throw new Error(`rules: ${res.status} ${res.body.error}`);
  return res.body.data.rules;
}

export interface InvestorTab {
  user: Investor;
  /** The stops armed, one per symbol. */
  rules: ArmedStop[];
  socket: TestSocket;
  /** Every `alert` the tab was sent, in order. */
  alerts: AlertExecution[];
}

/**
 * An investor signed in at `url` with a stop on each of `symbols` (`armStops`), and their tab
 * open at `tabUrl` (another instance, or the same one), recording the alerts it is sent.
 */
export async function investorWithTab(url: string, symbols: string[], tabUrl = url): Promise<InvestorTab> {
  const user = await signInAt(url);
  const rules = await armStops(url, user, symbols);
  const socket = connectSocket(tabUrl, user.token);
  await connected(socket);
  const alerts: AlertExecution[] = [];
  socket.on('alert', ({ execution }) => alerts.push(execution));
  return { user, rules, socket, alerts };
}

/** Executions of `userIds`, oldest first. */
export function executionsOf(db: TestDatabase, userIds: string[]) {
  return db.query<{ id: string; user_id: string; symbol: string; execution_price: string; status: string }>(
    `select id, user_id, symbol, execution_price, status from rule_executions
     where user_id = any($1::uuid[]) order by executed_at, id`,
    [userIds],
  );
}

/** What the processes of a process-level test run on, and the env that points them at it. */
export interface ClusterServices {
  db: TestDatabase;
  redis: RedisServer;
  mail: MailProvider;
  files: ReturnType<typeof tempDir>;
  /** The env of every server and streamer process: these services, the replay file and JWT_SECRET. */
  env: Record<string, string>;
  /** Stops Redis and the mail provider, drops the database and removes the folder. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** The temporary folder's prefix (`pg-two-`). */
  name: string;
  /** The replay file (`replayBatches`, test/helpers/replay.ts) the streamers publish, one batch every `intervalMs`. */
  replay?: string;
  intervalMs?: number;
  /** false: no database of its own (the processes keep PGlite in DATA_DIR). */
  database?: boolean;
  /** false: no Redis (a server alone: in-process bus and deliveries). */
  redis?: boolean;
  /** false: no fake SendGrid (the processes' default mailer). */
  mail?: boolean;
  /** More env for every process (APP_URL for a browser tab's origin, …). */
  env?: Record<string, string>;
}

/** A use of a service the cluster was started without fails, naming it. */
function missing(what: string): never {
  throw new Error(`this cluster was started without ${what}`);
}

/**
 * The opening of the process-level tests (two servers, two streamers, outages): a database of
 * their own, a private redis-server, a fake SendGrid (each unless `options` leave it out), a
 * folder for DATA_DIR and the replay file, and the env that joins them; the test starts the
 * server and streamer processes it needs on it.
 */
export async function startClusterServices(options: ClusterOptions): Promise<ClusterServices> {
  const [db, redis, mail] = await Promise.all([
    options.database === false ? undefined : createTestDatabase(),
    options.redis === false ? undefined : startRedisServer(),
    options.mail === false ? undefined : startMailProvider(),
  ]);
  const files = tempDir(options.name);
  const env: Record<string, string> = { DATA_DIR: files.dir, JWT_SECRET };
  if (db) env.DATABASE_URL = db.url;
  if (redis) env.REDIS_URL = redis.url;
  if (options.replay !== undefined) {
    env.QUOTE_PROVIDER = 'replay';
    env.REPLAY_FILE = files.file('replay.csv', options.replay);
  }
  if (options.intervalMs !== undefined) env.QUOTE_INTERVAL_MS = String(options.intervalMs);
  if (mail) {
    env.SENDGRID_API_KEY = 'SG.fake-key';
    env.SENDGRID_API_URL = mail.url;
  }
  Object.assign(env, options.env);
  return {
    get db() {
      return db ?? missing('a database of its own');
    },
    get redis() {
      return redis ?? missing('Redis');
    },
    get mail() {
      return mail ?? missing('a mail provider');
    },
    files,
    env,
    async stop() {
      await redis?.stop();
      await mail?.close();
      await db?.drop();
      files.remove();
    },
  };
}
