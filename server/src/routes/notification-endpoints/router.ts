import Router from '@koa/router';
import { addEndpointBody, verifyEndpointQuery } from '@app/common/api/endpoints';
import type { Context } from 'koa';
import { currentUser, requireUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { addEndpoint, deleteEndpoint, listEndpoints } from '../../endpoints/service.ts';
import { resendVerification, verifyEndpointToken } from '../../endpoints/verification.ts';
import { ok } from '../../http/envelope.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { validate, validated } from '../../http/validate.ts';

/** The /notification-endpoints routes of spec §7; all but verify need a signed-in user. */
export function notificationEndpointsRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/notification-endpoints' });
  const signedIn = requireUser(deps);
  const byUser = (ctx: Context) => currentUser(ctx).id;
  const addLimit = rateLimit(
    deps.rateLimiter({ name: 'endpoints-add', points: 20, durationSeconds: 3600 }),
    byUser,
  );
  const resendLimit = rateLimit(
    deps.rateLimiter({ name: 'endpoints-resend', points: 30, durationSeconds: 3600 }),
    byUser,
  );
  const verifyLimit = rateLimit(
    deps.rateLimiter({ name: 'endpoints-verify', points: 30, durationSeconds: 60 }),
  );

  router.get('/', signedIn, async (ctx) => {
    ok(ctx, await listEndpoints(deps, { user: currentUser(ctx) }));
  });

  router.post('/', signedIn, addLimit, validate('body', addEndpointBody), async (ctx) => {
    const body = validated(ctx, addEndpointBody);
    ok(ctx, await addEndpoint(deps, { ...body, user: currentUser(ctx) }), 201);
  });

  router.get('/verify', verifyLimit, validate('query', verifyEndpointQuery), async (ctx) => {
    const { token } = validated(ctx, verifyEndpointQuery);
    ok(ctx, await verifyEndpointToken(deps, { token }));
  });

  router.post('/:id/resend', signedIn, resendLimit, async (ctx) => {
    ok(ctx, await resendVerification(deps, { user: currentUser(ctx), id: ctx.params.id! }));
  });

  router.delete('/:id', signedIn, async (ctx) => {
    ok(ctx, await deleteEndpoint(deps, { user: currentUser(ctx), id: ctx.params.id! }));
  });

  return router;
}
