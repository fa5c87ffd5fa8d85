/**
 * Builds and starts one server process from a Config: database, Redis, the Koa app and
 * HTTP server. main.ts calls it with the process config; tests call it with their own.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '@app/config';
import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { createApp } from './app.ts';
import { openDatabase } from './db/client.ts';
import type { AppDeps } from './deps.ts';
import { createDomainEvents } from './events/domain-events.ts';
import { rateLimiterFactory } from './http/rate-limit.ts';
import { resolveJwtSecret } from './jwt-secret.ts';

export interface RuntimeOptions {
  log?: Logger;
  clientDist?: string;
  googleCertsUrl?: string;
  jwtSecret?: string;
}

export interface ServerRuntime {
  deps: AppDeps;
  http: Server;
  url: string;
  /** Stops accepting, finishes in-flight work, closes connections. */
  close(): Promise<void>;
}

export async function startServerRuntime(
  config: Config,
  options: RuntimeOptions = {},
): Promise<ServerRuntime> {
  const log = options.log ?? pino({ level: config.LOG_LEVEL });
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, lazyConnect: false })
    : undefined;
  redis?.on('error', (err) => log.warn({ err: err.message }, 'redis error'));
  const deps: AppDeps = {
    config,
    database,
    db: database.db,
    log,
    jwtSecret: options.jwtSecret ?? resolveJwtSecret(config),
    redis,
    rateLimiter: rateLimiterFactory(redis),
    events: createDomainEvents(),
    googleCertsUrl: options.googleCertsUrl,
  };
  const app = createApp(deps, { clientDist: options.clientDist });
  const http = createServer(app.callback());
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.PORT, config.HOST, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    deps,
    http,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      (closing ??= (async () => {
        await new Promise<void>((resolve) => {
          http.close(() => resolve());
          http.closeIdleConnections();
          setTimeout(() => http.closeAllConnections(), 5000).unref();
        });
        redis?.disconnect();
        await database.close();
      })()),
  };
}
