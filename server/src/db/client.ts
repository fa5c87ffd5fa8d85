/**
 * One database factory: a node-postgres pool when DATABASE_URL is set, PGlite stored under
 * DATA_DIR otherwise. The rest of the code sees one `Database` type and never asks which.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; services accept either a Database or a Tx. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Executor = Database | Tx;

export interface DatabaseHandle {
  db: Database;
  /**
   * The market pipeline's own connections (PostgreSQL: a small pool of MARKET_POOL_SIZE beside
   * the API's): storing batches, writing peaks and claiming crossings never wait for a
   * connection behind API requests and rule reloads, nor take theirs. PGlite: `db`.
   */
  market: Database;
  kind: 'postgres' | 'pglite';
  /** Runs a trivial query; throws when the database is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface DatabaseOptions {
  databaseUrl?: string;
  /** PGlite folder; `memory://` keeps it in memory (tests). */
  dataDir: string;
  poolSize?: number;
  /** Called with every statement's text (tests count the writes of each instance). */
  logQuery?: (query: string) => void;
  /**
   * Called when an idle pooled connection fails (the server restarted or cut it); the pool
   * replaces the connection. Without it the failure is written to stderr.
   */
  onIdleError?: (err: Error, pool: 'api' | 'market') => void;
}

/** Where an idle connection's failure goes when the caller gave no logger (the CLIs, tests). */
function warnIdleError(err: Error, pool: 'api' | 'market'): void {
  console.warn(`database: an idle connection of the ${pool} pool failed (${err.message}); it is replaced`);
}

/** Claim lanes (2 by default), storing a batch, writing peaks, and one to spare. */
export const MARKET_POOL_SIZE = 5;

/** Opens the database and applies the committed migrations. */
export async function openDatabase(opts: DatabaseOptions): Promise<DatabaseHandle> {
  if (opts.databaseUrl) {
    const logger = opts.logQuery ? { logQuery: opts.logQuery } : undefined;
    const onIdleError = opts.onIdleError ?? warnIdleError;
    const openPool = (name: 'api' | 'market', max: number) => {
      const pool = new pg.Pool({ connectionString: opts.databaseUrl, max, connectionTimeoutMillis: 5000 });
      // An idle client's error (server restart) must not crash the process; the pool replaces it.
      pool.on('error', (err) => onIdleError(err, name));
      return pool;
    };
    const pool = openPool('api', opts.poolSize ?? 10);
    const marketPool = openPool('market', MARKET_POOL_SIZE);
    const db = drizzlePg(pool, { schema, logger }) as unknown as Database;
    const market = drizzlePg(marketPool, { schema, logger }) as unknown as Database;
    await migratePg(db as never, { migrationsFolder });
    return {
      db,
      market,
      kind: 'postgres',
      ping: async () => {
        await pool.query('select 1');
      },
      close: async () => {
        await Promise.all([pool.end(), marketPool.end()]);
      },
    };
  }
  const dir = opts.dataDir.startsWith('memory://') ? opts.dataDir : path.resolve(opts.dataDir, 'pglite');
  if (!dir.startsWith('memory://')) mkdirSync(dir, { recursive: true });
  const client = new PGlite(dir);
  await client.waitReady;
  const logger = opts.logQuery ? { logQuery: opts.logQuery } : undefined;
  const db = drizzlePglite(client, { schema, logger }) as unknown as Database;
  await migratePglite(db as never, { migrationsFolder });
  return {
    db,
    market: db,
    kind: 'pglite',
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
  };
}

/** Runs raw SQL and returns its rows (node-postgres and PGlite both answer `{rows}`). */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
