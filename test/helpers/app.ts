/** Boots the real server runtime on a random port against the run's database. */
import { parseConfig } from '@app/config';
import { pino } from 'pino';
import { startServerRuntime, type ServerRuntime } from '../../server/src/runtime.ts';
import { testServices } from './root-hooks.ts';

export const TEST_JWT_SECRET = 'test-secret-that-is-at-least-32-characters-long';

export interface TestApp {
  url: string;
  runtime: ServerRuntime;
  close(): Promise<void>;
}

export interface BootOptions {
  env?: Record<string, string | undefined>;
  googleCertsUrl?: string;
  /** Use Redis (the run's server) for the bus, rate limits and the socket adapter. */
  withRedis?: boolean;
  clientDist?: string;
}

export async function bootApp(options: BootOptions = {}): Promise<TestApp> {
  const services = testServices();
  const config = parseConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: 'memory://',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    JWT_SECRET: TEST_JWT_SECRET,
    DATABASE_URL: services.databaseUrl,
    REDIS_URL: options.withRedis ? services.redisUrl : undefined,
    QUOTE_INTERVAL_MS: '1000',
    TRUST_PROXY: 'true',
    ...options.env,
  });
  const runtime = await startServerRuntime(config, {
    log: pino({ level: config.LOG_LEVEL }),
    googleCertsUrl: options.googleCertsUrl,
    clientDist: options.clientDist,
  });
  return { url: runtime.url, runtime, close: () => runtime.close() };
}
