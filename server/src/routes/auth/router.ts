import Router from '@koa/router';
import { demoSignInBody, googleSignInBody, logoutBody, refreshBody } from '@app/common/api/auth';
import { createGoogleVerifier } from '../../auth/google.ts';
import { currentUser, requireUser, type SessionUser } from '../../auth/require-user.ts';
import {
  endAllSessions,
  endSession,
  renewSession,
  startSession,
  type SessionTokens,
} from '../../auth/sessions.ts';
import type { AppDeps } from '../../deps.ts';
import { MethodNotAllowed, NotFound } from '../../http/errors.ts';
import { ok } from '../../http/envelope.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { jsonBody } from '../../http/json-body.ts';
import { validate, validated } from '../../http/validate.ts';
import { presentUser } from '../../users/presenter.ts';
import { signInUser } from '../../users/service.ts';

/** A new session as the client receives it. */
const presentSession = (user: SessionUser, tokens: SessionTokens) => ({
  token: tokens.accessToken,
  refresh_token: tokens.refreshToken,
  user: presentUser(user),
});

/** Requests a minute per client address to any /auth route: far above what a few tabs make. */
export const AUTH_ROUTER_LIMIT = 300;
/** Sign-ins a minute per client address (Google or demo). */
export const SIGN_IN_LIMIT = 20;

/**
 * Every /auth route (docs/auth.md). Each client address gets `AUTH_ROUTER_LIMIT` requests a minute
 * across the router, and stricter limits on sign-in and refresh.
 */
export function authRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/auth' });
  router.use(
    rateLimit(deps.rateLimiter({ name: 'auth-all', points: AUTH_ROUTER_LIMIT, durationSeconds: 60 })),
  );
  const signInLimit = rateLimit(
    deps.rateLimiter({ name: 'auth-signin', points: SIGN_IN_LIMIT, durationSeconds: 60 }),
  );
  const refreshLimit = rateLimit(deps.rateLimiter({ name: 'auth-refresh', points: 60, durationSeconds: 60 }));
  const verifyGoogle = deps.config.GOOGLE_CLIENT_ID
    ? createGoogleVerifier(deps.config.GOOGLE_CLIENT_ID, deps.googleCertsUrl ?? deps.config.GOOGLE_CERTS_URL)
    : undefined;

  router.get('/config', (ctx) =>
    ok(ctx, { demoMode: deps.config.demoMode, googleClientId: deps.config.GOOGLE_CLIENT_ID ?? null }),
  );

  router.post(
    '/google',
    signInLimit,
    jsonBody('googleSignIn'),
    validate('body', googleSignInBody),
    async (ctx) => {
      if (!verifyGoogle) throw new NotFound('Google sign-in is not configured on this server');
      const { credential } = validated(ctx, googleSignInBody);
      const identity = await verifyGoogle(credential);
      const user = await signInUser(deps.db, { ...identity, googleSub: identity.sub });
      ok(ctx, presentSession(user, await startSession(deps, { user })));
    },
  );

  router.post(
    '/login',
    signInLimit,
    jsonBody('demoSignIn'),
    validate('body', demoSignInBody),
    async (ctx) => {
      if (!deps.config.demoMode) throw new NotFound();
      const { email, name } = validated(ctx, demoSignInBody);
      const key = email.toLowerCase();
      // A public demo (production) proves nothing about the typed address: it is not verified.
      const user = await signInUser(deps.db, {
        googleSub: `demo:${key}`,
        email: key,
        name,
        emailProven: !deps.config.isProduction,
      });
      ok(ctx, presentSession(user, await startSession(deps, { user })));
    },
  );

  router.post('/register', () => {
    throw new MethodNotAllowed('Accounts are not registered here: sign in with your Google account instead.');
  });

  router.post('/refresh', refreshLimit, jsonBody('refresh'), validate('body', refreshBody), async (ctx) => {
    const { refresh_token } = validated(ctx, refreshBody);
    const renewed = await renewSession(deps, { refreshToken: refresh_token });
    ok(ctx, { access_token: renewed.accessToken, refresh_token: renewed.refreshToken });
  });

  router.post('/logout', jsonBody('logout'), validate('body', logoutBody), async (ctx) => {
    const { refresh_token } = validated(ctx, logoutBody);
    if (refresh_token) await endSession(deps, { refreshToken: refresh_token });
    ok(ctx, { signed_out: true });
  });

  router.post('/logout-all', requireUser(deps), async (ctx) => {
    await endAllSessions(deps, { userId: currentUser(ctx).id });
    ok(ctx, { signed_out: true });
  });

  router.get('/profile', requireUser(deps), (ctx) => ok(ctx, presentUser(currentUser(ctx))));
  router.get('/verify', requireUser(deps), (ctx) => ok(ctx, { user: presentUser(currentUser(ctx)) }));
  return router;
}
