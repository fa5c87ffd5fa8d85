import Router from '@koa/router';
import { createPriceAlertBody, updateAlertBody } from '@app/common/api/price-alerts';
import { alertHistoryQuery } from '@app/common/api/rules';
import { currentUser, requireUser, limitPerUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { executionHistory } from '../../executions/history.ts';
import { alertsOverview, deleteAlert, markAllRead, updateAlert } from '../../executions/feed.ts';
import { createPriceAlert } from '../../price-alerts/service.ts';
import { alertQuota } from '../../executions/quota.ts';
import { ok } from '../../http/envelope.ts';
import { uuidParams } from '../../http/params.ts';
import { jsonBody } from '../../http/json-body.ts';
import { validate, validated } from '../../http/validate.ts';

/**
 * /alerts (docs/exit-rules.md, Routes): the bell's feed, one-off price alerts, history and the monthly quota.
 */
export function alertsRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/alerts' });
  const writes = limitPerUser(deps, { name: 'alerts-write', points: 120, durationSeconds: 60 });
  router.use(requireUser(deps));

  router.get('/', async (ctx) => ok(ctx, await alertsOverview(deps, { userId: currentUser(ctx).id })));

  router.get('/quota', async (ctx) => ok(ctx, await alertQuota(deps.db, { user: currentUser(ctx) })));

  router.get('/history', validate('query', alertHistoryQuery), async (ctx) => {
    const { days } = validated(ctx, alertHistoryQuery);
    ok(ctx, await executionHistory(deps.db, { userId: currentUser(ctx).id, days }));
  });

  router.post('/', writes, jsonBody('priceAlert'), validate('body', createPriceAlertBody), async (ctx) => {
    const body = validated(ctx, createPriceAlertBody);
    ok(ctx, await createPriceAlert(deps, { user: currentUser(ctx), input: body }), 201);
  });

  router.post('/read-all', writes, async (ctx) => ok(ctx, await markAllRead(deps.db, currentUser(ctx).id)));

  router.put(
    '/:id',
    uuidParams('id'),
    writes,
    jsonBody('priceAlert'),
    validate('body', updateAlertBody),
    async (ctx) => {
      const body = validated(ctx, updateAlertBody);
      ok(ctx, await updateAlert(deps, { user: currentUser(ctx), id: ctx.params.id!, input: body }));
    },
  );

  router.delete('/:id', uuidParams('id'), writes, async (ctx) => {
    ok(ctx, await deleteAlert(deps, { user: currentUser(ctx), id: ctx.params.id! }));
  });

  return router;
}
