import Router from '@koa/router';
import { requireUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { NotFound } from '../../http/errors.ts';
import { ok } from '../../http/envelope.ts';
import { loadPriceChart } from '../../market/chart.ts';

/** /market/chart/:exchange/:symbol: today's minute bars, or recent daily closes (rule in market/chart.ts). */
export function marketRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/market' });
  router.use(requireUser(deps));
  router.get('/chart/:exchange/:symbol', async (ctx) => {
    const exchange = String(ctx.params.exchange).toUpperCase();
    if (exchange !== 'NSE' && exchange !== 'BSE') throw new NotFound('Unknown exchange');
    const symbol = String(ctx.params.symbol).toUpperCase().slice(0, 40);
    ok(ctx, await loadPriceChart({ db: deps.db, exchange, symbol, now: Date.now() }));
  });
  return router;
}
