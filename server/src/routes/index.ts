import Router from '@koa/router';
import type { AppDeps } from '../deps.ts';
import { authRouter } from './auth/router.ts';
import { eventsRouter } from './events/router.ts';
import { healthRouter } from './health/router.ts';

/** Every resource router, mounted under /api. Add a resource here and in the access sweep test. */
export function apiRouter(deps: AppDeps): Router {
  const api = new Router({ prefix: '/api' });
  for (const router of [healthRouter(deps), authRouter(deps), eventsRouter(deps)]) {
    api.use(router.routes(), router.allowedMethods());
  }
  return api;
}
