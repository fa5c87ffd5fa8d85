import Router from '@koa/router';
import { pageEventBody } from '@app/common/api/auth';
import { optionalUser, signedInUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { ok } from '../../http/envelope.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { jsonBody } from '../../http/json-body.ts';
import { validate, validated } from '../../http/validate.ts';
import { recordPageEvent } from '../../page-events/service.ts';

/** POST /events: first-party page views, signed in or not. */
export function eventsRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/events' });
  const limit = rateLimit(deps.rateLimiter({ name: 'events', points: 120, durationSeconds: 60 }));
  router.post(
    '/',
    limit,
    optionalUser(deps),
    jsonBody('pageEvent'),
    validate('body', pageEventBody),
    async (ctx) => {
      const event = validated(ctx, pageEventBody);
      await recordPageEvent(deps, { event, userId: signedInUser(ctx)?.id ?? null });
      ok(ctx, { recorded: true }, 201);
    },
  );
  return router;
}
