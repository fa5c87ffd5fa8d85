/**
 * Yahoo Finance quotes for NSE (`SYMBOL.NS`) and BSE (`SYMBOL.BO`) through the v7 quote API,
 * at most 50 symbols a request. Uses plain `fetch` rather than yahoo-finance2: that library
 * hard-codes its crumb host (query1.finance.yahoo.com) and cookie host, so it cannot be pointed
 * at a local fake, and its errors drop the Retry-After header our back-off honours.
 *
 * A symbol Yahoo leaves out of an answer is simply not returned; the poller then serves its
 * last price marked stale. Market hours: NSE/BSE (the streamer polls while open, plus once after
 * the close).
 */
import type { Logger } from 'pino';
import { yahooSymbol } from '@app/common/instruments/yahoo';
import { priceChange } from '@app/common/market/quote-math';
import type { Quote } from '@app/common/market/tick-batch';
import { z } from 'zod';
import { nseCalendar } from '../calendar.ts';
import { fetchForQuotes } from './http.ts';
import { QuoteProviderError, type QuoteProvider, type WatchedInstrument } from './types.ts';
import { createYahooSession } from './yahoo-session.ts';

/** Where the real Yahoo answers quote requests. */
export const YAHOO_DEFAULT_BASE_URL = 'https://query1.finance.yahoo.com';
const YAHOO_COOKIE_URL = 'https://fc.yahoo.com/';

/** Yahoo provider set-up. */
export interface YahooProviderOptions {
  /** YAHOO_BASE_URL: a fake in tests; the session cookie then comes from `${baseUrl}/` too. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  /** Clock for `asOf` when Yahoo gives no market time (default Date.now). */
  now?: () => number;
  log?: Logger;
}

const FIELDS = [
  'regularMarketPrice',
  'regularMarketPreviousClose',
  'regularMarketChange',
  'regularMarketChangePercent',
  'regularMarketTime',
].join(',');

const HEADERS = {
  accept: 'application/json,text/plain,*/*',
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
};

const finite = z.number().finite();
const yahooQuoteSchema = z.object({
  symbol: z.string(),
  regularMarketPrice: finite.positive(),
  regularMarketPreviousClose: finite.optional(),
  regularMarketChange: finite.optional(),
  regularMarketChangePercent: finite.optional(),
  /** Epoch seconds. */
  regularMarketTime: finite.nonnegative().optional(),
});

const yahooResponseSchema = z.object({
  quoteResponse: z.object({
    result: z.array(z.unknown()).nullable().optional(),
    error: z.unknown().optional(),
  }),
});

/** Creates the Yahoo provider (see the module comment). */
export function createYahooProvider(options: YahooProviderOptions = {}): QuoteProvider {
  const baseUrl = (options.baseUrl ?? YAHOO_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? Date.now;
  const session = createYahooSession({
    baseUrl,
    cookieUrl: options.baseUrl ? `${baseUrl}/` : YAHOO_COOKIE_URL,
    fetch: fetchImpl,
    timeoutMs,
    headers: HEADERS,
    log: options.log,
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
      asOf: y.regularMarketTime !== undefined ? Math.round(y.regularMarketTime * 1000) : now(),
    };
  }

  return {
    name: 'yahoo',
    maxSymbolsPerRequest: 50,
    calendar: nseCalendar,
    async getQuotes(instruments) {
      if (instruments.length === 0) return [];
      const bySymbol = new Map(instruments.map((i) => [yahooSymbol(i.symbol, i.exchange), i]));
      const { cookie, crumb } = await session.credentials();
      const params = new URLSearchParams({ symbols: [...bySymbol.keys()].join(','), fields: FIELDS });
      if (crumb) params.set('crumb', crumb);
      const response = await fetchForQuotes(fetchImpl, `${baseUrl}/v7/finance/quote?${params}`, {
        headers: { ...HEADERS, ...(cookie ? { cookie } : {}) },
        timeoutMs,
      });
      if (response.status === 401 || response.status === 403) {
        await response.body?.cancel();
        session.invalidate();
        throw new QuoteProviderError(`yahoo refused the session (${response.status})`, {
          status: response.status,
          retryable: true,
        });
      }
      const body: unknown = await response.json().catch((cause: unknown) => {
        throw new QuoteProviderError('yahoo answered something that is not JSON', {
          status: response.status,
          retryable: response.ok,
          cause,
        });
      });
      const parsed = yahooResponseSchema.safeParse(body);
      if (!response.ok || !parsed.success) {
        throw new QuoteProviderError(`yahoo answered ${response.status} without quotes`, {
          status: response.status,
          retryable: false,
        });
      }
      const result = parsed.data.quoteResponse.result ?? [];
      if (result.length === 0 && parsed.data.quoteResponse.error) {
        throw new QuoteProviderError('yahoo reported an error instead of quotes', { retryable: false });
      }
      return result.map((item) => toQuote(item, bySymbol)).filter((q): q is Quote => q !== undefined);
    },
  };
}
