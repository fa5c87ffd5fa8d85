import Router from '@koa/router';
import { demoSignInBody, googleSignInBody, logoutBody, refreshBody } from '@app/common/api/auth';
import { signAccessToken } from '../../auth/access-token.ts';
import { createGoogleVerifier } from '../../auth/google.ts';
import {
  issueRefreshToken,
  revokeAllForUser,
  revokeSession,
  rotateRefreshToken,
  type SessionRef,
} from '../../auth/refresh-tokens.ts';
import { currentUser, requireUser, type SessionUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { MethodNotAllowed, NotFound, Unauthorized } from '../../http/errors.ts';
import { ok } from '../../http/envelope.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { validate, validated } from '../../http/validate.ts';
import { presentUser } from '../../users/presenter.ts';
import { settlesWithin } from '../../util/settles-within.ts';
import { bumpTokenVersion, signInUser } from '../../users/service.ts';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.ts';

/** How long a logout waits for Redis to take its `sessions` change (it never fails for it). */
const PUBLISH_WAIT_MS = 1000;

/** Requests a minute per client address to any /auth route: far above what a few tabs make. */
export const AUTH_ROUTER_LIMIT = 300;

/**
 * Every /auth route of spec §7. Each client address gets `AUTH_ROUTER_LIMIT` requests a minute
 * across the router, and stricter limits on sign-in and refresh.
 */
export function authRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/auth' });
  router.use(
    rateLimit(deps.rateLimiter({ name: 'auth-all', points: AUTH_ROUTER_LIMIT, durationSeconds: 60 })),
  );
  const signInLimit = rateLimit(deps.rateLimiter({ name: 'auth-signin', points: 20, durationSeconds: 60 }));
  const refreshLimit = rateLimit(deps.rateLimiter({ name: 'auth-refresh', points: 60, durationSeconds: 60 }));
  const verifyGoogle = deps.config.GOOGLE_CLIENT_ID
    ? createGoogleVerifier(deps.config.GOOGLE_CLIENT_ID, deps.googleCertsUrl ?? deps.config.GOOGLE_CERTS_URL)
    : undefined;

  async function session(user: SessionUser) {
    const refresh = await issueRefreshToken(deps.db, user.id);
    return {
      token: signAccessToken({ user, sessionId: refresh.familyId }, deps.jwtSecret),
      refresh_token: refresh.raw,
      user: presentUser(user),
    };
  }

  /**
   * After the family's revocation commits: its access tokens and sockets end on every instance.
   * Waited for (briefly) so the change feed has it before the answer leaves: another instance
   * asked next finds it published (session-users.ts).
   */
  const endSession = ({ userId, familyId }: SessionRef) =>
    settlesWithin(deps.events.publish({ type: 'sessions', userId, sessionId: familyId }), PUBLISH_WAIT_MS);

  router.get('/config', (ctx) =>
    ok(ctx, { demoMode: deps.config.demoMode, googleClientId: deps.config.GOOGLE_CLIENT_ID ?? null }),
  );

  router.post('/google', signInLimit, validate('body', googleSignInBody), async (ctx) => {
    if (!verifyGoogle) throw new NotFound('Google sign-in is not configured on this server');
    const { credential } = validated(ctx, googleSignInBody);
    const identity = await verifyGoogle(credential);
    const user = await signInUser(deps.db, { ...identity, googleSub: identity.sub });
    ok(ctx, await session(user));
  });

  router.post('/login', signInLimit, validate('body', demoSignInBody), async (ctx) => {
    if (!deps.config.demoMode) throw new NotFound();
    const { email, name } = validated(ctx, demoSignInBody);
    const key = email.toLowerCase();
    const user = await signInUser(deps.db, { googleSub: `demo:${key}`, email: key, name });
    ok(ctx, await session(user));
  });

  router.post('/register', () => {
    throw new MethodNotAllowed('Accounts are not registered here: sign in with your Google account instead.');
  });

  router.post('/refresh', refreshLimit, validate('body', refreshBody), async (ctx) => {
    const { refresh_token } = validated(ctx, refreshBody);
    const rotated = await rotateRefreshToken(deps.db, refresh_token, { onRevoked: endSession });
    const [user] = await deps.db.select().from(users).where(eq(users.id, rotated.userId));
    if (!user) throw new Unauthorized();
    // The same session: logout ends every access token of this sign-in.
    const token = signAccessToken({ user, sessionId: rotated.familyId }, deps.jwtSecret);
    ok(ctx, { access_token: token, refresh_token: rotated.refreshToken });
  });

  router.post('/logout', validate('body', logoutBody), async (ctx) => {
    const { refresh_token } = validated(ctx, logoutBody);
    const ended = refresh_token ? await revokeSession(deps.db, refresh_token) : undefined;
    if (ended) await endSession(ended);
    ok(ctx, { signed_out: true });
  });

  router.post('/logout-all', requireUser(deps), async (ctx) => {
    const user = currentUser(ctx);
    await deps.db.transaction(async (tx) => {
      await bumpTokenVersion(tx, user.id);
      await revokeAllForUser(tx, user.id);
    });
    await settlesWithin(deps.events.publish({ type: 'sessions', userId: user.id }), PUBLISH_WAIT_MS);
    ok(ctx, { signed_out: true });
  });

  router.get('/profile', requireUser(deps), (ctx) => ok(ctx, presentUser(currentUser(ctx))));
  router.get('/verify', requireUser(deps), (ctx) => ok(ctx, { user: presentUser(currentUser(ctx)) }));
  return router;
}
