import Router from '@koa/router';
import { PREVIEW_LIMIT_MESSAGE, priceGuardBacktestBody } from '@app/common/api/price-guard';
import { currentUser, limitPerUser, requireUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { ok } from '../../http/envelope.ts';
import { jsonBody } from '../../http/json-body.ts';
import { validate, validated } from '../../http/validate.ts';
import { previewGuardForUser } from '../../rules/guard-preview.ts';

/**
 * /price-guard/backtest (docs/exit-rules.md, "Price Guard's preview"): the rule Price Guard would
 * give, backtested over the caller's holdings, with the ATR stop's whipsaws beside it.
 */
export function priceGuardRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/price-guard' });
  router.use(requireUser(deps));
  // Every holding's history a request: a handful a minute is all a review needs.
  const previews = limitPerUser(
    deps,
    { name: 'price-guard-backtest', points: 20, durationSeconds: 60 },
    PREVIEW_LIMIT_MESSAGE,
  );
  router.post(
    '/backtest',
    previews,
    jsonBody('priceGuardBacktest'),
    validate('body', priceGuardBacktestBody),
    async (ctx) => {
      ok(
        ctx,
        await previewGuardForUser(deps, {
          userId: currentUser(ctx).id,
          input: validated(ctx, priceGuardBacktestBody),
        }),
      );
    },
  );
  return router;
}
