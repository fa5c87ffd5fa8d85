/**
 * Shared steps of the process-level reliability tests: a fresh PostgreSQL database, the services
 * and env of a cluster of server and streamer processes, replay files, seeded quotes, users with rules, and waiting.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { apiClient } from '../../helpers/http.ts';
import { startProcess, waitHealthy, type RunningProcess } from '../../helpers/processes.ts';
import { freePort, startRedisServer, type RedisServer } from '../../helpers/services.ts';
import { startMailProvider, type MailProvider } from './mail-provider.ts';

export const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
export const JWT_SECRET = 'reliability-test-secret-that-is-long-enough-42';

/** `npm run test:soak` sets SOAK=1: the long forms (10 s outages, real lock expiry). */
export const LONG_FORM = process.env.SOAK === '1';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns something other than undefined; fails naming `what`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

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
  const name = `pg_rel_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: base });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (err) {
    throw new Error(
      `this test needs a PostgreSQL server (DATABASE_URL or ${LOCAL_POSTGRES}): ${(err as Error).message}`,
    );
  } finally {
    await admin.end().catch(() => undefined);
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 3 });
  pool.on('error', () => undefined);
  return {
    url: url.toString(),
    pool,
    query: async (text, values) => (await pool.query(text, values)).rows,
    drop: async () => {
      await pool.end();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
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

/** A replay CSV: one batch per entry, each `{SYMBOL: price}` on NSE. */
export function replayCsv(batches: Array<Record<string, number>>): string {
  const rows = ['time,symbol,exchange,price,prev_close'];
  batches.forEach((prices, i) => {
    for (const [symbol, price] of Object.entries(prices)) rows.push(`${i + 1},${symbol},NSE,${price},1000`);
  });
  return `${rows.join('\n')}\n`;
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

/** `npm run streamer`'s entry. */
export function startStreamerProcess(env: Record<string, string>): RunningProcess {
  return startProcess('streamer/src/main.ts', env);
}

/** The last lines a process wrote, for failure messages. */
export function tail(proc: RunningProcess, lines = 40): string {
  return proc.output().trim().split('\n').slice(-lines).join('\n');
}

export interface Investor {
  id: string;
  email: string;
  token: string;
  refreshToken: string;
}

/** Demo sign-in through `url` (each from its own address, so sign-in limits stay out of the way). */
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
  return { id: body.data.user.id, email, token: body.data.token, refreshToken: body.data.refresh_token };
}

/** Holds each symbol (one upload) and arms a fixed stop loss of `percent` on each. */
export async function armStops(
  url: string,
  user: Investor,
  symbols: string[],
  percent = 5,
): Promise<Array<{ id: string; symbol: string; computed_trigger_price: number }>> {
  const api = apiClient(url);
  const csvData = `Symbol,Quantity,Buy Price\n${symbols.map((s) => `${s},1,900`).join('\n')}\n`;
  const upload = await api.post('/api/holdings/upload-csv', { csvData }, user.token);
  if (upload.status !== 201) throw new Error(`upload: ${upload.status} ${upload.body.error}`);
  const rules = symbols.map((symbol) => ({
    symbol,
    trigger_type: 'FIXED_STOP_LOSS',
    trigger_value: percent,
  }));
  const res = await api.post<{
    rules: Array<{ id: string; symbol: string; computed_trigger_price: number }>;
  }>('/api/position-rules/bulk', { rules }, user.token);
  if (res.status !== 201 || !res.body.data) throw new Error(`rules: ${res.status} ${res.body.error}`);
  return res.body.data.rules;
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
  /** The env of every server and streamer process: this database, Redis, replay file and mail. */
  env: Record<string, string>;
  /** Stops Redis and the mail provider, drops the database and removes the folder. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** The temporary folder's prefix (`pg-two-`). */
  name: string;
  /** The replay CSV (`replayCsv`) the streamers publish, one batch every `intervalMs`. */
  replay: string;
  intervalMs: number;
  /** More env for every process (APP_URL for a browser tab's origin, …). */
  env?: Record<string, string>;
}

/**
 * The opening of the cluster tests (two servers, two streamers, outages): a database of their
 * own, a private redis-server, a fake SendGrid, a folder for DATA_DIR and the replay file, and
 * the env that joins them; the test starts the server and streamer processes it needs on it.
 */
export async function startClusterServices(options: ClusterOptions): Promise<ClusterServices> {
  const [db, redis, mail] = await Promise.all([
    createTestDatabase(),
    startRedisServer(),
    startMailProvider(),
  ]);
  const files = tempDir(options.name);
  const env = {
    DATA_DIR: files.dir,
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    JWT_SECRET,
    QUOTE_PROVIDER: 'replay',
    REPLAY_FILE: files.file('replay.csv', options.replay),
    QUOTE_INTERVAL_MS: String(options.intervalMs),
    SENDGRID_API_KEY: 'SG.fake-key',
    SENDGRID_API_URL: mail.url,
    ...options.env,
  };
  return {
    db,
    redis,
    mail,
    files,
    env,
    async stop() {
      await redis.stop();
      await mail.close();
      await db.drop();
      files.remove();
    },
  };
}
