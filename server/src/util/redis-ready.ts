import type { Redis } from 'ioredis';

/** How long a request waits for one Redis command before it goes on without Redis. */
export const REDIS_REQUEST_TIMEOUT_MS = 500;

/**
 * `redis` while its connection is up, else undefined. ioredis queues a command sent while it is
 * reconnecting and answers only after its retries (seconds while Redis is down): a request
 * that can do without Redis asks here first and goes straight to its in-process fallback.
 * (Rate limits do the same through rate-limiter-flexible's `rejectIfRedisNotReady`.)
 */
export function redisWhenReady(redis: Redis | undefined): Redis | undefined {
  return redis?.status === 'ready' ? redis : undefined;
}

/**
 * A connection of its own for the commands a request waits on (rate limits, the session check,
 * readiness). A Redis that hangs (its connections open, nothing answered: a stopped process, a
 * lost network) would hold each of them for as long as it hangs. Here each command gives up
 * after REDIS_REQUEST_TIMEOUT_MS, and a connection that has heard nothing for that long after
 * sending a command is dropped and made again: until Redis answers its handshake it is not
 * ready, so requests go straight to their fallbacks, as when Redis is down. The background work
 * (the change feed's subscriber and publishes, the batch owner lease, the watch set, the email
 * queue, the Socket.IO adapter) keeps the connections it has, which wait for Redis.
 */
export function requestConnection(redis: Redis): Redis {
  return redis.duplicate({
    commandTimeout: REDIS_REQUEST_TIMEOUT_MS,
    socketTimeout: REDIS_REQUEST_TIMEOUT_MS,
    // A command caught in a dropped connection fails at once instead of waiting for the next one.
    maxRetriesPerRequest: 0,
  });
}
