import Router from '@koa/router';
import { EXCHANGES } from '@app/common/instruments/types';
import { yahooSymbol } from '@app/common/instruments/yahoo';
import { z } from 'zod';
import { requireUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { NotFound } from '../../http/errors.ts';
import { ok } from '../../http/envelope.ts';
import { input, validate } from '../../http/validate.ts';

const exchange = z.enum(EXCHANGES, { message: 'exchange must be NSE or BSE' });
const searchQuery = z.object({
  query: z.string().trim().max(60).default(''),
  limit: z.coerce.number().int().min(1).max(20).default(5),
  exchange: z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), exchange).optional(),
});
const validateBody = z.object({
  symbol: z.string().trim().min(1, 'Symbol is required').max(40),
  exchange: exchange.default('NSE'),
});

const present = (i: { symbol: string; name: string; exchange: string; isin: string; kind: string }) => ({
  symbol: i.symbol,
  company_name: i.name,
  exchange: i.exchange,
  isin: i.isin || null,
  kind: i.kind,
});

/** /symbols: search the NSE/BSE master (in memory), validate, details, stats. */
export function symbolsRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/symbols' });
  router.use(requireUser(deps));
  router.get('/search', validate('query', searchQuery), (ctx) => {
    const q = input<z.infer<typeof searchQuery>>(ctx, 'query');
    ok(ctx, deps.instruments.search(q.query, { limit: q.limit, exchange: q.exchange }).map(present));
  });
  router.post('/validate', validate('body', validateBody), (ctx) => {
    const { symbol, exchange } = input<z.infer<typeof validateBody>>(ctx, 'body');
    const found = deps.instruments.find(symbol, exchange);
    ok(ctx, {
      valid: Boolean(found),
      symbol: found?.symbol ?? symbol.toUpperCase(),
      exchange,
      company_name: found?.name ?? null,
      renamed_from: found && found.symbol !== symbol.toUpperCase() ? symbol.toUpperCase() : null,
    });
  });
  router.get('/details/:exchange/:symbol', (ctx) => {
    const ex = exchange.safeParse(String(ctx.params.exchange).toUpperCase());
    const found = ex.success ? deps.instruments.find(String(ctx.params.symbol), ex.data) : undefined;
    if (!found) throw new NotFound('Symbol not found');
    ok(ctx, {
      ...present(found),
      series: found.series ?? null,
      scrip_code: found.scripCode ?? null,
      // The ticker the Yahoo provider polls: TCS.NS, SIMCA-SM.NS (Emerge), 500325.BO.
      yahoo_symbol: yahooSymbol(found.symbol, found.exchange, found),
    });
  });
  router.get('/stats', (ctx) => ok(ctx, deps.instruments.stats()));
  return router;
}
