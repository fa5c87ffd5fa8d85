import Router from '@koa/router';
import {
  addEndpointBody,
  endpointNoticesBody,
  verifyCodeBody,
  verifyEndpointQuery,
} from '@app/common/api/endpoints';
import { CODE_MESSAGES } from '@app/common/endpoints/whatsapp-code';
import { TEST_REFUSALS } from '@app/common/notifications/test-notice';
import type { Context, Next } from 'koa';
import { currentUser, requireUser, limitPerUser } from '../../auth/require-user.ts';
import { connectTelegram } from '../../channels/telegram/link.ts';
import { addPushEndpoint } from '../../channels/webpush/subscriptions.ts';
import type { HttpDeps } from '../../deps.ts';
import { setEndpointNotices } from '../../endpoints/notices.ts';
import { loadOwnEndpoint } from '../../endpoints/own-endpoint.ts';
import { loadTestableEndpoint, sendTest } from '../../endpoints/send-test.ts';
import { addEndpoint, deleteEndpoint, listEndpoints } from '../../endpoints/service.ts';
import { unsubscribe } from '../../endpoints/unsubscribe.ts';
import { resendVerification, verifyEndpointToken } from '../../endpoints/verification.ts';
import { verifyCode } from '../../endpoints/whatsapp-code.ts';
import { Invalid } from '../../http/errors.ts';
import { ok } from '../../http/envelope.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { jsonBody } from '../../http/json-body.ts';
import { validate, validated } from '../../http/validate.ts';

/** The /notification-endpoints routes (docs/notifications.md); all but verify need a signed-in user. */
export function notificationEndpointsRouter(deps: HttpDeps): Router {
  const router = new Router({ prefix: '/notification-endpoints' });
  const signedIn = requireUser(deps);
  const addLimit = limitPerUser(deps, { name: 'endpoints-add', points: 20, durationSeconds: 3600 });
  // Each Connect Telegram makes a fresh link (and replaces the pending one): a few a minute.
  const telegramLinkLimit = limitPerUser(deps, {
    name: 'endpoints-telegram-link',
    points: 5,
    durationSeconds: 60,
  });
  const resendLimit = limitPerUser(deps, { name: 'endpoints-resend', points: 30, durationSeconds: 3600 });
  const noticesLimit = limitPerUser(deps, { name: 'endpoints-notices', points: 120, durationSeconds: 3600 });
  const codeLimit = limitPerUser(deps, { name: 'endpoints-code', points: 30, durationSeconds: 600 });
  // "Send a test": one a minute to each endpoint, ten an hour in all (a test is a real message).
  const testPerEndpointLimit = rateLimit(
    deps.rateLimiter({ name: 'endpoints-test', points: 1, durationSeconds: 60 }),
    (ctx) => `${currentUser(ctx).id}:${ctx.params.id!}`,
    TEST_REFUSALS.tooSoon,
  );
  const testPerUserLimit = limitPerUser(
    deps,
    { name: 'endpoints-test-user', points: 10, durationSeconds: 3600 },
    TEST_REFUSALS.tooMany,
  );
  const verifyLimit = rateLimit(
    deps.rateLimiter({ name: 'endpoints-verify', points: 30, durationSeconds: 60 }),
  );

  router.get('/', signedIn, async (ctx) => {
    ok(ctx, await listEndpoints(deps, { user: currentUser(ctx) }));
  });

  router.post(
    '/',
    signedIn,
    addLimit,
    jsonBody('endpointAdd'),
    validate('body', addEndpointBody),
    async (ctx) => {
      const body = validated(ctx, addEndpointBody);
      const user = currentUser(ctx);
      if (body.type === 'telegram') {
        await telegramLinkLimit(ctx, async () => ok(ctx, await connectTelegram(deps, { user }), 201));
        return;
      }
      if (body.type === 'webpush') {
        const userAgent = ctx.get('User-Agent') || undefined;
        const { endpoint, created } = await addPushEndpoint(deps, { ...body, user, userAgent });
        ok(ctx, endpoint, created ? 201 : 200);
        return;
      }
      ok(ctx, await addEndpoint(deps, { ...body, user }), 201);
    },
  );

  router.get('/verify', verifyLimit, validate('query', verifyEndpointQuery), async (ctx) => {
    const { token } = validated(ctx, verifyEndpointQuery);
    ok(ctx, await verifyEndpointToken(deps, { token }));
  });

  // One-click unsubscribe (RFC 8058): a mail client POSTs; a person who opens the link is
  // sent to the page that asks first (link scanners GET it too).
  router.post('/unsubscribe', verifyLimit, validate('query', verifyEndpointQuery), async (ctx) => {
    const { token } = validated(ctx, verifyEndpointQuery);
    ok(ctx, await unsubscribe(deps, { token }));
  });

  router.get('/unsubscribe', verifyLimit, validate('query', verifyEndpointQuery), (ctx) => {
    const { token } = validated(ctx, verifyEndpointQuery);
    // Relative: the page is served by this same origin.
    ctx.redirect(`/unsubscribe?token=${encodeURIComponent(token)}`);
  });

  router.post('/:id/resend', signedIn, resendLimit, async (ctx) => {
    ok(ctx, await resendVerification(deps, { user: currentUser(ctx), id: ctx.params.id! }));
  });

  // The owner check comes first on a route with an id and a body: another user's id is 404 whatever the body.
  const ownEndpoint = async (ctx: Context, next: Next) => {
    await loadOwnEndpoint(deps.db, { userId: currentUser(ctx).id, id: ctx.params.id! });
    await next();
  };

  router.patch(
    '/:id',
    signedIn,
    noticesLimit,
    ownEndpoint,
    jsonBody('endpointNotices'),
    validate('body', endpointNoticesBody),
    async (ctx) => {
      const { notices } = validated(ctx, endpointNoticesBody);
      ok(ctx, await setEndpointNotices(deps, { user: currentUser(ctx), id: ctx.params.id!, notices }));
    },
  );

  // A WhatsApp number's six-digit code (endpoints/whatsapp-code.ts): 5 wrong tries per code.
  router.post(
    '/:id/verify',
    signedIn,
    codeLimit,
    ownEndpoint,
    jsonBody('endpointVerify'),
    validate('body', verifyCodeBody),
    async (ctx) => {
      const codes = deps.whatsappCodes;
      if (!codes) throw new Invalid(CODE_MESSAGES.notConfigured);
      const { code } = validated(ctx, verifyCodeBody);
      ok(ctx, await verifyCode({ ...deps, codes }, { user: currentUser(ctx), id: ctx.params.id!, code }));
    },
  );

  // The owner check and the endpoint's state come first: 404 and 409 spend no test.
  const testableEndpoint = async (ctx: Context, next: Next) => {
    await loadTestableEndpoint(deps.db, { userId: currentUser(ctx).id, id: ctx.params.id! });
    await next();
  };
  router.post(
    '/:id/test',
    signedIn,
    testableEndpoint,
    testPerEndpointLimit,
    testPerUserLimit,
    async (ctx) => {
      ok(ctx, await sendTest(deps, { userId: currentUser(ctx).id, id: ctx.params.id! }), 202);
    },
  );

  router.delete('/:id', signedIn, async (ctx) => {
    ok(ctx, await deleteEndpoint(deps, { user: currentUser(ctx), id: ctx.params.id! }));
  });

  return router;
}
