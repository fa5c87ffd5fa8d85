/**
 * The real services a test run needs: a fresh PostgreSQL database (when DATABASE_URL is set)
 * or PGlite, and a Redis server (REDIS_URL, or an ephemeral redis-server started here).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import pg from 'pg';

export async function freePort(): Promise<number> {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}

/** Creates a uniquely named database on the server of `baseUrl`; returns its name and URL. */
export async function createFreshDatabase(
  baseUrl: string,
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `pg_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end().catch(() => undefined);
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => dropDatabase(baseUrl, name) };
}

/** Drops database `name` on the server of `baseUrl` (connecting as `baseUrl`), if it exists. */
export async function dropDatabase(baseUrl: string, name: string): Promise<void> {
  const c = new pg.Client({ connectionString: baseUrl });
  await c.connect();
  try {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await c.end();
  }
}

export interface RedisServer {
  url: string;
  port: number;
  /** The running redis-server's process id (undefined once stopped). */
  pid(): number | undefined;
  stop(): Promise<void>;
  /** Starts it again on the same port (after stop). */
  start(): Promise<void>;
}

/** An ephemeral redis-server on a free port, nothing on disk. */
export async function startRedisServer(port?: number): Promise<RedisServer> {
  const p = port ?? (await freePort());
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.on('error', (err) => {
      console.error(
        `redis-server could not start (${err.message}): install it with apt-get install redis-server`,
      );
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('redis-server did not start within 5 s')), 5000);
      child!.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child!.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
    });
  };
  const stop = async () => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  };
  await start();
  const pid = () => (child && child.exitCode === null && child.signalCode === null ? child.pid : undefined);
  return { url: `redis://127.0.0.1:${p}`, port: p, pid, stop, start };
}
