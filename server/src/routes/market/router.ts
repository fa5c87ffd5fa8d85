import Router from '@koa/router';
import { marketBarsQuery } from '@app/common/api/market-bars';
import { presentFeedState, type MarketFeedAnswer } from '@app/common/api/market-feed';
import { limitPerUser, requireUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { loadAdjustedBars } from '../../history/bars.ts';
import { NotFound } from '../../http/errors.ts';
import { ok } from '../../http/envelope.ts';
import { validate, validated } from '../../http/validate.ts';
import { loadPriceChart } from '../../market/chart.ts';

/**
 * /market/chart/:exchange/:symbol: today's minute bars, or recent daily closes (rule in
 * market/chart.ts); /market/bars?symbol=&exchange=&from=&to=: daily bars from the store, split-
 * and bonus-adjusted (history/bars.ts, docs/history.md); /market/feed: where the quote feed
 * stands, as the streamer last reported it.
 */
export function marketRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/market' });
  router.use(requireUser(deps));
  // Up to ten years a request: tighter than the reads limit every signed-in GET has.
  const barsLimit = limitPerUser(deps, { name: 'market-bars', points: 60, durationSeconds: 60 });
  router.get('/bars', barsLimit, validate('query', marketBarsQuery), async (ctx) => {
    ok(ctx, await loadAdjustedBars(deps, validated(ctx, marketBarsQuery)));
  });
  router.get('/chart/:exchange/:symbol', async (ctx) => {
    const exchange = String(ctx.params.exchange).toUpperCase();
    if (exchange !== 'NSE' && exchange !== 'BSE') throw new NotFound('Unknown exchange');
    const symbol = String(ctx.params.symbol).toUpperCase().slice(0, 40);
    ok(ctx, await loadPriceChart({ db: deps.db, exchange, symbol, now: Date.now() }));
  });
  router.get('/feed', async (ctx) => {
    const state = await deps.feedState?.();
    const answer: MarketFeedAnswer = state
      ? presentFeedState(state)
      : {
          // No streamer has reported (none running, or it has not finished its first cycle).
          provider: deps.config.QUOTE_PROVIDER,
          state: 'down',
          reason: 'The price feed has not reported yet.',
          since: new Date().toISOString(),
          delay_minutes: 0,
          instruments: { streamed: 0, polled: 0, unsupported: [], unsupported_count: 0 },
        };
    ok(ctx, answer);
  });
  return router;
}
