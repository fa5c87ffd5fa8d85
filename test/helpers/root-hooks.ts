/** Once per run: a fresh database (PostgreSQL server when DATABASE_URL is set) and a Redis. */
import { createFreshDatabase, startRedisServer, type RedisServer } from './services.ts';

interface TestServices {
  /** A fresh database of this run on the PostgreSQL server, or undefined for PGlite. */
  databaseUrl?: string;
  redisUrl: string;
}

let services: TestServices | undefined;
let cleanup: Array<() => Promise<void>> = [];

export function testServices(): TestServices {
  if (!services) throw new Error('test services are not started (root hooks not loaded)');
  return services;
}

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(60_000);
    let databaseUrl: string | undefined;
    if (process.env.DATABASE_URL) {
      const db = await createFreshDatabase(process.env.DATABASE_URL);
      databaseUrl = db.url;
      cleanup.push(db.drop);
    }
    let redisUrl = process.env.REDIS_URL;
    if (!redisUrl) {
      const redis: RedisServer = await startRedisServer();
      redisUrl = redis.url;
      cleanup.push(redis.stop);
    }
    services = { databaseUrl, redisUrl };
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(30_000);
    for (const fn of cleanup.reverse()) await fn().catch((err) => console.error('cleanup failed:', err));
    cleanup = [];
  },
};
