import Router from '@koa/router';
import { outboxQuery } from '@app/common/api/dev';
import type { AppDeps } from '../../deps.ts';
import { NotFound } from '../../http/errors.ts';
import { ok } from '../../http/envelope.ts';
import { validate, validated } from '../../http/validate.ts';
import { listOutbox } from '../../mail/outbox.ts';

/** GET /dev/outbox: the mail the outbox mailer stored, newest first. Demo mode only (404 otherwise). */
export function devRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/dev' });
  router.get(
    '/outbox',
    async (ctx, next) => {
      if (!deps.config.demoMode) throw new NotFound();
      await next();
    },
    validate('query', outboxQuery),
    async (ctx) => {
      const { to, limit } = validated(ctx, outboxQuery);
      ok(ctx, await listOutbox(deps.db, { to: to || undefined, limit }));
    },
  );
  return router;
}
