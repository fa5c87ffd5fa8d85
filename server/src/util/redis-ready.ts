import type { Redis } from 'ioredis';

/**
 * `redis` while its connection is up, else undefined. ioredis queues a command sent while it is
 * reconnecting and answers only after its retries (seconds while Redis is down): a request
 * that can do without Redis asks here first and goes straight to its in-process fallback.
 * (Rate limits do the same through rate-limiter-flexible's `rejectIfRedisNotReady`.)
 */
export function redisWhenReady(redis: Redis | undefined): Redis | undefined {
  return redis?.status === 'ready' ? redis : undefined;
}
