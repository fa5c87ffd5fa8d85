import Router from '@koa/router';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { NotFound } from '../../http/errors.ts';
import { ok } from '../../http/envelope.ts';
import { input, validate } from '../../http/validate.ts';
import { listOutbox } from '../../mail/outbox.ts';

const outboxQuery = z.object({
  to: z.string().trim().max(320).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

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
      const { to, limit } = input<z.infer<typeof outboxQuery>>(ctx, 'query');
      ok(ctx, await listOutbox(deps.db, { to: to || undefined, limit }));
    },
  );
  return router;
}
