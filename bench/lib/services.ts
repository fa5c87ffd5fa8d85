/** The real services a benchmark needs: a private Redis, a fresh PostgreSQL database. */
import pg from 'pg';
import { createFreshDatabase, startRedisServer, type RedisServer } from '../../test/helpers/services.ts';

export { startRedisServer, type RedisServer };

/** The PostgreSQL server benchmarks create databases on (DATABASE_URL, else the local default). */
export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** `url` when a PostgreSQL server answers there within two seconds, else undefined. */
export async function reachablePostgres(url = process.env.DATABASE_URL ?? DEFAULT_POSTGRES_URL) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return url;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface BenchDatabase {
  /** For DATABASE_URL; undefined means PGlite. */
  url?: string;
  kind: 'PostgreSQL' | 'PGlite';
  drop(): Promise<void>;
}

/** A fresh database on the PostgreSQL server when there is one, else PGlite (in the server process). */
export async function freshDatabase(postgresUrl: string | undefined): Promise<BenchDatabase> {
  if (!postgresUrl) return { kind: 'PGlite', drop: async () => undefined };
  const db = await createFreshDatabase(postgresUrl);
  return { url: db.url, kind: 'PostgreSQL', drop: db.drop };
}

/**
 * A copy of `template` (a seeded database no one is connected to) on the same server: B8 seeds
 * its crash day once and starts every run from the same state.
 */
export async function cloneDatabase(postgresUrl: string, template: string): Promise<BenchDatabase> {
  const templateName = new URL(template).pathname.slice(1);
  const name = `${templateName}_c${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${templateName}`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    kind: 'PostgreSQL',
    drop: async () => {
      const c = new pg.Client({ connectionString: postgresUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
