/**
 * Redis connections that survive Redis: errors are logged (once per outage, then at debug),
 * never thrown at the process; ioredis reconnects forever and re-subscribes by itself. Commands
 * issued during an outage fail after a couple of reconnect attempts or `commandTimeout`.
 */
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';

/** A Redis connection for one role (`bus`, `bus-subscriber`, `leader`), with outage logging. */
export function createRedisConnection(
  url: string,
  log: Logger,
  role: string,
  overrides: RedisOptions = {},
): Redis {
  const redis = new Redis(url, {
    connectionName: `portfolio-guard-${role}`,
    maxRetriesPerRequest: 2,
    commandTimeout: 5000,
    retryStrategy: (attempt) => Math.min(100 * attempt, 2000),
    ...overrides,
  });
  let healthy = true;
  redis.on('error', (err: Error) => {
    if (healthy) log.warn({ err, role }, 'redis connection lost; reconnecting');
    else log.debug({ err, role }, 'redis still unavailable');
    healthy = false;
  });
  redis.on('ready', () => {
    if (!healthy) log.info({ role }, 'redis connection restored');
    healthy = true;
  });
  return redis;
}

/** Closes a connection politely when it is up, at once otherwise; never throws. */
export async function closeRedisConnection(redis: Redis, log: Logger): Promise<void> {
  if (redis.status !== 'ready') {
    redis.disconnect();
    return;
  }
  try {
    await redis.quit();
  } catch (err) {
    log.debug({ err }, 'redis quit failed; disconnecting');
    redis.disconnect();
  }
}
