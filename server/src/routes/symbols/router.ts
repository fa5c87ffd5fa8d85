import Router from '@koa/router';
import { yahooSymbol } from '@app/common/instruments/yahoo';
import { symbolExchange, symbolSearchQuery, validateSymbolBody } from '@app/common/api/symbols';
import { requireUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { NotFound } from '../../http/errors.ts';
import { ok } from '../../http/envelope.ts';
import { jsonBody } from '../../http/json-body.ts';
import { validate, validated } from '../../http/validate.ts';

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
  router.get('/search', validate('query', symbolSearchQuery), (ctx) => {
    const q = validated(ctx, symbolSearchQuery);
    ok(ctx, deps.instruments.search(q.query, { limit: q.limit, exchange: q.exchange }).map(present));
  });
  router.post('/validate', jsonBody('symbolCheck'), validate('body', validateSymbolBody), (ctx) => {
    const { symbol, exchange } = validated(ctx, validateSymbolBody);
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
    const ex = symbolExchange.safeParse(String(ctx.params.exchange).toUpperCase());
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
