import Koa from 'koa';
import type { AppDeps, HttpDeps } from './deps.ts';
import { logAppError } from './http/aborted.ts';
import { errorEnvelope } from './http/envelope.ts';
import { requestShape } from './http/input-guard.ts';
import { corsAllowlist, requestLog, securityHeaders } from './http/security.ts';
import { staticClient } from './http/static-client.ts';
import type { ServerMetrics } from './metrics/index.ts';
import { apiRouter } from './routes/index.ts';
import { metricsRouter } from './routes/metrics/router.ts';
import { fulfilsWithin } from './util/settles-within.ts';

export interface AppOptions {
  /** The built client to serve with an SPA fallback (client/dist). */
  clientDist?: string;
  /** Served at GET /metrics when METRICS_TOKEN is configured. */
  metrics?: ServerMetrics;
}

/** A quick database ping, bounded to 2 s. */
const databaseReachable = (deps: AppDeps) => fulfilsWithin(deps.database.ping(), 2000);

/** Builds the Koa app: middleware chain, /api routes, and the built client. */
export function createApp(deps: HttpDeps, options: AppOptions = {}): Koa {
  const app = new Koa({ proxy: deps.config.TRUST_PROXY, maxIpsCount: 1 });
  app.use(requestLog(deps.log));
  app.use(
    securityHeaders({
      googleSignIn: Boolean(deps.config.GOOGLE_CLIENT_ID),
      https: new URL(deps.config.appUrl).protocol === 'https:',
    }),
  );
  app.use(errorEnvelope(deps.log, () => databaseReachable(deps)));
  app.use(async (ctx, next) => {
    if (ctx.path.startsWith('/api')) ctx.set('Cache-Control', 'no-store');
    await next();
  });
  app.use(corsAllowlist(deps.config.appUrl));
  // No body is read here: the routes that take one read it after sign-in (http/json-body.ts).
  app.use(requestShape());
  if (options.metrics) app.use(metricsRouter(deps, options.metrics).routes());
  const api = apiRouter(deps);
  app.use(api.routes());
  app.use(api.allowedMethods({ throw: false }));
  if (options.clientDist) app.use(staticClient(options.clientDist));
  app.on('error', logAppError(deps.log));
  return app;
}
