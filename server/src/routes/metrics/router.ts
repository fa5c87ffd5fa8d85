import { createHash, timingSafeEqual } from 'node:crypto';
import Router from '@koa/router';
import type { AppDeps } from '../../deps.ts';
import { NotFound, Unauthorized } from '../../http/errors.ts';
import type { ServerMetrics } from '../../metrics/index.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares in constant time (digests have one length whatever was sent). */
function sameToken(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * GET /metrics (outside /api, for Prometheus): `Authorization: Bearer <METRICS_TOKEN>`.
 * Without a configured token the endpoint does not exist (404); a wrong or missing token is 401.
 */
export function metricsRouter(deps: AppDeps, metrics: ServerMetrics): Router {
  const router = new Router();
  router.get('/metrics', async (ctx) => {
    const expected = deps.config.METRICS_TOKEN;
    if (!expected) throw new NotFound();
    const header = ctx.get('Authorization');
    const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (!given || !sameToken(given, expected)) {
      ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new Unauthorized('A valid metrics token is required');
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });
  return router;
}
