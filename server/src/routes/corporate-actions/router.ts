import Router from '@koa/router';
import { corporateActionsQuery } from '@app/common/api/corporate-actions';
import { istDateOf } from '@app/common/market/calendar';
import { currentUser, requireUser } from '../../auth/require-user.ts';
import { listCorporateActions } from '../../corporate-actions/store.ts';
import type { AppDeps } from '../../deps.ts';
import { ok } from '../../http/envelope.ts';
import { validate, validated } from '../../http/validate.ts';

/**
 * GET /corporate-actions?symbol=&exchange=: one instrument's bonuses, splits, rights,
 * demergers and buy-backs; without a symbol, those on the caller's holdings and rules.
 */
export function corporateActionsRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/corporate-actions' });
  router.use(requireUser(deps));
  router.get('/', validate('query', corporateActionsQuery), async (ctx) => {
    const q = validated(ctx, corporateActionsQuery);
    ok(
      ctx,
      await listCorporateActions(deps.db, {
        userId: currentUser(ctx).id,
        symbol: q.symbol,
        exchange: q.exchange,
        today: istDateOf(new Date()),
      }),
    );
  });
  return router;
}
