import Router from '@koa/router';
import type { ApiVapidPublicKey } from '@app/common/api/endpoints';
import { requireUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { ok } from '../../http/envelope.ts';

/** The /push routes (docs/notifications.md#web-push): the key a browser subscribes with; signed in. */
export function pushRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/push' });

  router.get('/vapid-public-key', requireUser(deps), (ctx) => {
    ok(ctx, { public_key: deps.vapid.publicKey } satisfies ApiVapidPublicKey);
  });

  return router;
}
