import type { Context, Next } from 'koa';
import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { TooManyRequests } from './errors.ts';

export interface RateLimitSpec {
  /** A name unique per limit (the Redis key prefix). */
  name: string;
  points: number;
  durationSeconds: number;
}

export type RateLimiterFactory = (spec: RateLimitSpec) => RateLimiterAbstract;

/**
 * Limits shared by every instance through Redis when there is one, else per process. While
 * Redis is not connected each instance counts on its own at once (the insurance limiter)
 * rather than waiting for Redis's retries; shared counting resumes when it is back.
 */
export function rateLimiterFactory(redis?: Redis): RateLimiterFactory {
  return ({ name, points, durationSeconds }) =>
    redis
      ? new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `rl:${name}`,
          points,
          duration: durationSeconds,
          insuranceLimiter: new RateLimiterMemory({ points, duration: durationSeconds }),
          rejectIfRedisNotReady: true,
        })
      : new RateLimiterMemory({ keyPrefix: name, points, duration: durationSeconds });
}

/**
 * The client's address. Behind a trusted proxy (TRUST_PROXY) it is the last X-Forwarded-For
 * entry, the one the proxy appended: earlier entries are whatever the client chose to send,
 * and keying on them (as `ctx.ip` does) would let anyone dodge a limit with a made-up header.
 */
export function clientAddress(ctx: Context): string {
  return ctx.ips.at(-1) ?? ctx.ip;
}

/**
 * Consumes one point per request under `key(ctx)`; 429 with Retry-After when spent, saying
 * `message` when given (else a general sentence).
 */
export function rateLimit(
  limiter: RateLimiterAbstract,
  key: (ctx: Context) => string = clientAddress,
  message?: string,
) {
  return async (ctx: Context, next: Next) => {
    try {
      await limiter.consume(key(ctx));
    } catch (res) {
      if (res instanceof RateLimiterRes) throw new TooManyRequests(res.msBeforeNext / 1000, message);
      throw res;
    }
    await next();
  };
}
