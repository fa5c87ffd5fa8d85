import Router from '@koa/router';
import { and, asc, desc, eq, gte } from 'drizzle-orm';
import { requireUser } from '../../auth/require-user.ts';
import { priceBars, quotes } from '../../db/schema.ts';
import type { AppDeps } from '../../deps.ts';
import { NotFound } from '../../http/errors.ts';
import { ok } from '../../http/envelope.ts';
import { istDayStart } from '../../market/ingest.ts';

/** Daily closes shown when there are no minute bars for today (market closed). */
const DAILY_CLOSES = 30;

/** /market/chart/:exchange/:symbol: today's minute bars, or recent daily closes. */
export function marketRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/market' });
  router.use(requireUser(deps));
  router.get('/chart/:exchange/:symbol', async (ctx) => {
    const exchange = String(ctx.params.exchange).toUpperCase();
    if (exchange !== 'NSE' && exchange !== 'BSE') throw new NotFound('Unknown exchange');
    const symbol = String(ctx.params.symbol).toUpperCase().slice(0, 40);
    const instrument = and(eq(priceBars.exchange, exchange), eq(priceBars.symbol, symbol));
    const minutes = await deps.db
      .select({ t: priceBars.bucket, close: priceBars.close })
      .from(priceBars)
      .where(and(instrument, eq(priceBars.interval, '1m'), gte(priceBars.bucket, istDayStart(Date.now()))))
      .orderBy(asc(priceBars.bucket));
    const daily = minutes.length
      ? []
      : await deps.db
          .select({ t: priceBars.bucket, close: priceBars.close })
          .from(priceBars)
          .where(and(instrument, eq(priceBars.interval, '1d')))
          .orderBy(desc(priceBars.bucket))
          .limit(DAILY_CLOSES);
    const [latest] = await deps.db
      .select()
      .from(quotes)
      .where(and(eq(quotes.exchange, exchange), eq(quotes.symbol, symbol)));
    const bars = (minutes.length ? minutes : daily.reverse()).map((b) => ({
      t: b.t.getTime(),
      close: Number(b.close),
    }));
    ok(ctx, {
      symbol,
      exchange,
      interval: minutes.length ? '1m' : '1d',
      bars,
      prev_close: latest?.prevClose ? Number(latest.prevClose) : null,
    });
  });
  return router;
}
