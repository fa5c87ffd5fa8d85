import Router from '@koa/router';
import type { AppDeps } from '../../deps.ts';
import { ServiceUnavailable } from '../../http/errors.ts';
import { ok } from '../../http/envelope.ts';

/** GET /health (the process is up), /test-db (spec §7), /ready (database and Redis reachable). */
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
    const checks = { database: false, redis: deps.redis ? false : ('not used' as const) };
    try {
      await deps.database.ping();
      checks.database = true;
    } catch (err) {
      deps.log.warn({ err }, 'readiness: database unreachable');
    }
    if (deps.redis) {
      checks.redis = (await deps.redis.ping().catch(() => 'down')) === 'PONG' ? true : false;
    }
    if (!checks.database || checks.redis === false) {
      ctx.status = 503;
      ctx.body = { success: false, error: 'Not ready', data: checks };
      return;
    }
    ok(ctx, checks);
  });
  return router;
}
