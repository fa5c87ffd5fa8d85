/**
 * Yahoo Finance quotes for NSE (`SYMBOL.NS`) and BSE (`SYMBOL.BO`) through yahoo-finance2's
 * batch `quote()` (the v7 quote API), at most 50 symbols a request. The library runs Yahoo's
 * cookie-and-crumb handshake and checks each answer against its schema; our `fetch`
 * (`./yahoo-fetch.ts`) points it at `YAHOO_BASE_URL` when set and turns 429/5xx answers into
 * retryable errors that keep their Retry-After, which the poller's back-off honours.
 *
 * A symbol Yahoo leaves out of an answer is simply not returned; the poller then serves its
 * last price marked stale. Market hours: NSE/BSE (the streamer polls while open, plus once after
 * the close).
 *
 * yahoo-finance2 keeps the crumb in module state, shared by every client in the process: a new
 * provider clears it and starts its own session (one Yahoo provider per process).
 */
import { nseCalendar } from '@app/common/market/calendar';
import { yahooSymbol } from '@app/common/instruments/yahoo';
import { priceChange } from '@app/common/market/quote-math';
import type { Quote } from '@app/common/market/tick-batch';
import type { Logger } from 'pino';
import YahooFinance from 'yahoo-finance2';
import { ExtendedCookieJar } from 'yahoo-finance2/lib/cookieJar';
import { getCrumbClear } from 'yahoo-finance2/lib/getCrumb';
import type { Logger as LibraryLogger } from 'yahoo-finance2/lib/options';
import { z } from 'zod';
import { QuoteProviderError, type QuoteProvider, type WatchedInstrument } from './types.ts';
import { createYahooFetch } from './yahoo-fetch.ts';

/** Yahoo provider set-up. */
export interface YahooProviderOptions {
  /** YAHOO_BASE_URL: every Yahoo host (query1/2, finance, fc, consent) is sent there instead. */
  baseUrl?: string;
  /** The fetch that really sends (default: the global one). */
  fetch?: typeof fetch;
  /** Per HTTP request (default 10 s). */
  timeoutMs?: number;
  /** Clock for `asOf` when Yahoo gives no market time (default Date.now). */
  now?: () => number;
  log?: Logger;
}

const FIELDS = [
  'symbol',
  'regularMarketPrice',
  'regularMarketPreviousClose',
  'regularMarketChange',
  'regularMarketChangePercent',
  'regularMarketTime',
] as const;

const finite = z.number().finite();
/** What we use of a library quote (already validated and coerced by yahoo-finance2). */
const yahooQuoteSchema = z.object({
  symbol: z.string(),
  regularMarketPrice: finite.positive(),
  regularMarketPreviousClose: finite.optional(),
  regularMarketChange: finite.optional(),
  regularMarketChangePercent: finite.optional(),
  regularMarketTime: z.date().optional(),
});

/** The library's log lines go to pino: notices and object dumps at debug, problems at warn. */
function libraryLogger(log?: Logger): LibraryLogger {
  const line = (args: unknown[]) =>
    args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
  const debug = (...args: unknown[]) => log?.debug({ library: 'yahoo-finance2' }, line(args));
  const warn = (...args: unknown[]) => log?.warn({ library: 'yahoo-finance2' }, line(args));
  return { debug, info: debug, dir: debug, warn, error: warn };
}

/** Creates the Yahoo provider (see the module comment). */
export function createYahooProvider(options: YahooProviderOptions = {}): QuoteProvider {
  const now = options.now ?? Date.now;
  const cookieJar = new ExtendedCookieJar();
  const yahooFinance = new YahooFinance({
    fetch: createYahooFetch({
      baseUrl: options.baseUrl,
      fetch: options.fetch,
      timeoutMs: options.timeoutMs ?? 10_000,
      onSessionRefused: () => getCrumbClear(cookieJar),
    }),
    cookieJar,
    logger: libraryLogger(options.log),
    suppressNotices: ['yahooSurvey'],
    versionCheck: false,
  });
  const sessionCleared = getCrumbClear(cookieJar).catch((err: unknown) => {
    options.log?.warn({ err }, 'yahoo: could not clear the previous session');
  });

  function toQuote(item: unknown, bySymbol: Map<string, WatchedInstrument>): Quote | undefined {
    const parsed = yahooQuoteSchema.safeParse(item);
    if (!parsed.success) return undefined;
    const y = parsed.data;
    const instrument = bySymbol.get(y.symbol.toUpperCase());
    if (!instrument) return undefined;
    const prevClose =
      y.regularMarketPreviousClose !== undefined && y.regularMarketPreviousClose > 0
        ? y.regularMarketPreviousClose
        : null;
    const change =
      prevClose !== null
        ? priceChange(y.regularMarketPrice, prevClose)
        : { change: y.regularMarketChange ?? null, changePercent: y.regularMarketChangePercent ?? null };
    return {
      symbol: instrument.symbol,
      exchange: instrument.exchange,
      ltp: y.regularMarketPrice,
      prevClose,
      ...change,
      asOf: y.regularMarketTime?.getTime() ?? now(),
    };
  }

  return {
    name: 'yahoo',
    maxSymbolsPerRequest: 50,
    calendar: nseCalendar,
    async getQuotes(instruments) {
      if (instruments.length === 0) return [];
      const bySymbol = new Map(instruments.map((i) => [yahooSymbol(i.symbol, i.exchange), i]));
      await sessionCleared;
      let result: unknown[];
      try {
        result = await yahooFinance.quote([...bySymbol.keys()], { fields: [...FIELDS], return: 'array' });
      } catch (err) {
        if (err instanceof QuoteProviderError) throw err;
        // The library refused the answer (schema check, no crumb, an error object from Yahoo).
        throw new QuoteProviderError(`yahoo-finance2: ${err instanceof Error ? err.message : String(err)}`, {
          retryable: false,
          cause: err,
        });
      }
      return result.map((item) => toQuote(item, bySymbol)).filter((q): q is Quote => q !== undefined);
    },
  };
}
