import type { Context, Next } from 'koa';
import type { AppDeps } from '../deps.ts';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { Unauthorized } from '../http/errors.ts';
import { rateLimit, type RateLimitSpec } from '../http/rate-limit.ts';
import { verifyAccessToken, type AccessClaims } from './access-token.ts';
import type { SessionUser } from './session-users.ts';

export type { SessionUser } from './session-users.ts';

/** A bearer access token resolved: its current user and the token's claims (expiry). */
export interface Session {
  user: SessionUser;
  claims: AccessClaims;
}

/**
 * Verifies the token once and finds its user (session-users.ts), checking that its session is
 * still signed in and the token version; throws Unauthorized. `keep: false` for a one-off check
 * (a socket handshake): the row is not cached for later ones.
 */
export async function authenticateSession(
  deps: Pick<AppDeps, 'jwtSecret' | 'sessions'>,
  token: string | undefined,
  { keep = true }: { keep?: boolean } = {},
): Promise<Session> {
  if (!token) throw new Unauthorized();
  const claims = verifyAccessToken(token, deps.jwtSecret);
  const user = await deps.sessions.get(claims, keep);
  if (!user || user.tokenVersion !== claims.tv)
    throw new Unauthorized('Your session has ended. Please sign in again.');
  return { user, claims };
}

/** Resolves a bearer access token to its current user; throws Unauthorized. */
export async function authenticate(deps: AppDeps, token: string | undefined): Promise<SessionUser> {
  return (await authenticateSession(deps, token)).user;
}

/**
 * One limiter per app (the factory), so every router's guard counts into the same budget:
 * `USER_READS_PER_MINUTE` reads (GET and HEAD) per signed-in user, 3,000 by default. A tab at
 * its busiest makes a few a second; 3,844 a second from one user once took another user's p99
 * from 9 to 92 ms.
 */
const readLimiters = new WeakMap<AppDeps['rateLimiter'], RateLimiterAbstract>();

function readLimiter(deps: Pick<AppDeps, 'rateLimiter' | 'config'>): RateLimiterAbstract {
  let limiter = readLimiters.get(deps.rateLimiter);
  if (!limiter) {
    const points = deps.config.USER_READS_PER_MINUTE;
    limiter = deps.rateLimiter({ name: 'user-reads', points, durationSeconds: 60 });
    readLimiters.set(deps.rateLimiter, limiter);
  }
  return limiter;
}

/** Route guard: puts the signed-in user on ctx.state.user; a user's reads are rate-limited. */
export function requireUser(deps: AppDeps) {
  const limitReads = rateLimit(readLimiter(deps), (ctx) => currentUser(ctx).id);
  return async (ctx: Context, next: Next) => {
    const header = ctx.get('Authorization');
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    ctx.state.user = await authenticate(deps, token);
    if (ctx.method === 'GET' || ctx.method === 'HEAD') await limitReads(ctx, next);
    else await next();
  };
}

/**
 * Route guard for routes open to everyone: puts the user on ctx.state.user when a valid bearer
 * token came, and nobody (undefined) when none did or it was refused. Any other failure (the
 * session could not be checked) fails the request as usual.
 */
export function optionalUser(deps: AppDeps) {
  return async (ctx: Context, next: Next) => {
    const header = ctx.get('Authorization');
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    try {
      ctx.state.user = token ? await authenticate(deps, token) : undefined;
    } catch (err) {
      if (!(err instanceof Unauthorized)) throw err;
      ctx.state.user = undefined;
    }
    await next();
  };
}

/** The user of a route guarded by `optionalUser`, if one signed in. */
export function signedInUser(ctx: Context): SessionUser | undefined {
  return ctx.state.user as SessionUser | undefined;
}

/** The signed-in user of a guarded route. */
export function currentUser(ctx: Context): SessionUser {
  return ctx.state.user as SessionUser;
}

/**
 * A route's limit per signed-in user (after `requireUser`): `spec.points` requests each
 * `spec.durationSeconds`, across instances; past it 429 with `message` (or the generic one).
 */
export function limitPerUser(deps: Pick<AppDeps, 'rateLimiter'>, spec: RateLimitSpec, message?: string) {
  return rateLimit(deps.rateLimiter(spec), (ctx) => currentUser(ctx).id, message);
}
