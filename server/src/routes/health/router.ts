import Router from '@koa/router';
import type { Redis } from 'ioredis';
import type { AppDeps } from '../../deps.ts';
import { ServiceUnavailable } from '../../http/errors.ts';
import { ok } from '../../http/envelope.ts';
import { redisWhenReady } from '../../util/redis-ready.ts';
import { fulfilsWithin } from '../../util/settles-within.ts';

/** The longest /ready waits for the database (Redis commands give up sooner: util/redis-ready.ts). */
const READY_CHECK_MS = 800;

/** Redis is connected and answers a PING (within the request connection's timeout). */
async function redisAnswers(redis: Redis): Promise<boolean> {
  const ready = redisWhenReady(redis);
  return ready !== undefined && (await ready.ping().catch(() => 'down')) === 'PONG';
}

/**
 * GET /health (the process is up), /test-db (a database round trip), /ready (database and Redis reachable).
 */
export function healthRouter(deps: AppDeps): Router {
  const router = new Router();
  router.get('/health', (ctx) => ok(ctx, { status: 'ok', time: new Date().toISOString() }));
  router.get('/test-db', async (ctx) => {
    try {
      await deps.database.ping();
    } catch (err) {
      deps.log.warn({ err }, 'database ping failed');
      throw new ServiceUnavailable('Database connection failed');
    }
    ok(ctx, { database: deps.database.kind, connected: true });
  });
  router.get('/ready', async (ctx) => {
    // Both asked at once, each bounded: the answer comes within READY_CHECK_MS whatever hangs.
    const [database, redis] = await Promise.all([
      fulfilsWithin(deps.database.ping(), READY_CHECK_MS),
      deps.requestRedis ? redisAnswers(deps.requestRedis) : ('not used' as const),
    ]);
    if (!database) deps.log.warn('readiness: the database did not answer');
    const checks = { database, redis };
    if (!database || redis === false) {
      ctx.status = 503;
      ctx.body = { success: false, error: 'Not ready', data: checks };
      return;
    }
    ok(ctx, checks);
  });
  return router;
}
