import Router from '@koa/router';
import { executionsQuery } from '@app/common/api/rules';
import { currentUser, requireUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { listExecutions } from '../../executions/history.ts';
import { ok } from '../../http/envelope.ts';
import { validate, validated } from '../../http/validate.ts';

const DEFAULT_DAYS = 30;

/** GET /rule-executions (spec §7): the History page, newest first, `{executions, total}`. */
export function ruleExecutionsRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/rule-executions' });
  router.use(requireUser(deps));
  router.get('/', validate('query', executionsQuery), async (ctx) => {
    const q = validated(ctx, executionsQuery);
    const end = q.end_date ?? new Date();
    const start = q.start_date ?? new Date(end.getTime() - DEFAULT_DAYS * 86_400_000);
    ok(
      ctx,
      await listExecutions(deps.db, {
        userId: currentUser(ctx).id,
        start,
        end,
        limit: q.limit,
        offset: q.offset,
      }),
    );
  });
  return router;
}
