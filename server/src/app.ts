import Koa from 'koa';
import { koaBody } from 'koa-body';
import type { AppDeps } from './deps.ts';
import { errorEnvelope } from './http/envelope.ts';
import { bodyParseError, refuseControlCharacters, requestShape } from './http/input-guard.ts';
import { corsAllowlist, requestLog, securityHeaders } from './http/security.ts';
import { staticClient } from './http/static-client.ts';
import type { ServerMetrics } from './metrics/index.ts';
import { apiRouter } from './routes/index.ts';
import { metricsRouter } from './routes/metrics/router.ts';
import { settlesWithin } from './util/settles-within.ts';

/** Request bodies above this are refused with 413 (a 1,000-row broker file is ~100 KB). */
export const BODY_LIMIT = '2mb';

export interface AppOptions {
  /** The built client to serve with an SPA fallback (client/dist). */
  clientDist?: string;
  /** Served at GET /metrics when METRICS_TOKEN is configured. */
  metrics?: ServerMetrics;
}

/** A quick database ping, bounded to 2 s. */
async function databaseReachable(deps: AppDeps): Promise<boolean> {
  let answered = false;
  const ping = deps.database.ping().then(() => {
    answered = true;
  });
  return (await settlesWithin(ping, 2000)) && answered;
}

/** Builds the Koa app: middleware chain, /api routes, and the built client. */
export function createApp(deps: AppDeps, options: AppOptions = {}): Koa {
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
  app.use(requestShape());
  app.use(
    koaBody({
      jsonLimit: BODY_LIMIT,
      json: true,
      text: false,
      urlencoded: false,
      multipart: false,
      jsonStrict: true,
      onError: bodyParseError,
    }),
  );
  app.use(refuseControlCharacters());
  if (options.metrics) app.use(metricsRouter(deps, options.metrics).routes());
  const api = apiRouter(deps);
  app.use(api.routes());
  app.use(api.allowedMethods({ throw: false }));
  if (options.clientDist) app.use(staticClient(options.clientDist));
  app.on('error', (err, ctx) => {
    if ((err as { status?: number }).status && (err as { status: number }).status < 500) return;
    deps.log.error({ err, path: ctx?.path }, 'koa error');
  });
  return app;
}
