import Router from '@koa/router';
import { executionDeliveriesQuery, executionsQuery } from '@app/common/api/rules';
import { currentUser, requireUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { deliveriesByExecution, listExecutions } from '../../executions/history.ts';
import { ok } from '../../http/envelope.ts';
import { validate, validated } from '../../http/validate.ts';

const DEFAULT_DAYS = 30;

/**
 * GET /rule-executions (docs/exit-rules.md, Routes): the History page, newest first, `{executions, total}`,
 * each with its deliveries; GET /rule-executions/deliveries?ids=: the deliveries of rows whose
 * status changed (docs/notifications.md#where-each-alert-went).
 */
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
  router.get('/deliveries', validate('query', executionDeliveriesQuery), async (ctx) => {
    const { ids } = validated(ctx, executionDeliveriesQuery);
    ok(ctx, await deliveriesByExecution(deps.db, { userId: currentUser(ctx).id, ids }));
  });
  return router;
}
