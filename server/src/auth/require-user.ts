import { eq } from 'drizzle-orm';
import type { Context, Next } from 'koa';
import type { AppDeps } from '../deps.ts';
import { users } from '../db/schema.ts';
import { Unauthorized } from '../http/errors.ts';
import { verifyAccessToken } from './access-token.ts';

export type SessionUser = typeof users.$inferSelect;

/** Resolves a bearer access token to its current user; throws Unauthorized. */
export async function authenticate(deps: AppDeps, token: string | undefined): Promise<SessionUser> {
  if (!token) throw new Unauthorized();
  const claims = verifyAccessToken(token, deps.jwtSecret);
  const [user] = await deps.db.select().from(users).where(eq(users.id, claims.sub));
  if (!user || user.tokenVersion !== claims.tv)
    throw new Unauthorized('Your session has ended. Please sign in again.');
  return user;
}

/** Route guard: puts the signed-in user on ctx.state.user. */
export function requireUser(deps: AppDeps) {
  return async (ctx: Context, next: Next) => {
    const header = ctx.get('Authorization');
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    ctx.state.user = await authenticate(deps, token);
    await next();
  };
}

/** The signed-in user of a guarded route. */
export function currentUser(ctx: Context): SessionUser {
  return ctx.state.user as SessionUser;
}
