import Router from '@koa/router';
import { pageEventBody } from '@app/common/api/auth';
import { authenticate } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { pageEvents } from '../../db/schema.ts';
import { ok } from '../../http/envelope.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { validate, validated } from '../../http/validate.ts';

/** POST /events: first-party page views, signed in or not. */
export function eventsRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/events' });
  const limit = rateLimit(deps.rateLimiter({ name: 'events', points: 120, durationSeconds: 60 }));
  router.post('/', limit, validate('body', pageEventBody), async (ctx) => {
    const body = validated(ctx, pageEventBody);
    const header = ctx.get('Authorization');
    const user = header.startsWith('Bearer ')
      ? await authenticate(deps, header.slice(7)).catch(() => undefined)
      : undefined;
    await deps.db.insert(pageEvents).values({ ...body, userId: user?.id ?? null });
    ok(ctx, { recorded: true }, 201);
  });
  return router;
}
