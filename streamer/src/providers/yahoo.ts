/**
 * Yahoo Finance quotes for NSE (`SYMBOL.NS`) and BSE (`500325.BO`) through yahoo-finance2's
 * batch `quote()` (the v7 quote API), at most 50 symbols a request. The library runs Yahoo's
 * cookie-and-crumb handshake and checks each answer against its schema; our `fetch`
 * (`./yahoo-fetch.ts`) points it at `YAHOO_BASE_URL` when set and turns 429/5xx answers into
 * retryable errors that keep their Retry-After, which the poller's back-off honours.
 *
 * What a quote says is read, not assumed: the exchange time (`regularMarketTime` → `asOf`), the
 * delay (`exchangeDataDelayedBy` → `delayMinutes`, 15 for NSE/BSE), the currency (rupees only:
 * any other is dropped and logged once per symbol) and the type (`NONE`, Yahoo's answer for a
 * delisted symbol, is not a quote; the library already drops it). An answer without
 * `regularMarketPreviousClose` keeps its previous close as price minus `regularMarketChange`.
 * A symbol Yahoo leaves out is simply not returned; the poller serves its last price stale and,
 * after a few cycles, marks it unavailable.
 *
 * Some instruments have two Yahoo spellings. NSE Emerge (SME) stocks are `SYMBOL-SM.NS`: the watch
 * set carries no listing kind, so an NSE symbol missing from the answer is asked for once more
 * as `SYMBOL-SM.NS` in the same call. BSE stocks are asked for by scrip code (`500325.BO`, the
 * name Yahoo lists every BSE stock under) when the master knows it, and once more by Security
 * Id (`RELIANCE.BO`) when that goes unanswered. The spelling that answered is remembered (a stock
 * migrating between SME and main board is followed the same way).
 *
 * yahoo-finance2 keeps the crumb in module state, shared by every client in the process: a new
 * provider clears it and starts its own session (one Yahoo provider per process).
 */
import { nseCalendar } from '@app/common/market/calendar';
import { yahooSymbol } from '@app/common/instruments/yahoo';
import { priceChange } from '@app/common/market/quote-math';
import { instrumentKey, type Quote } from '@app/common/market/tick-batch';
import { round2 } from '@app/common/portfolio/position-math';
import type { Logger } from 'pino';
import YahooFinance from 'yahoo-finance2';
import { ExtendedCookieJar } from 'yahoo-finance2/lib/cookieJar';
import { getCrumbClear } from 'yahoo-finance2/lib/getCrumb';
import type { Logger as LibraryLogger } from 'yahoo-finance2/lib/options';
import { z } from 'zod';
import { QuoteProviderError, type QuoteProvider, type WatchedInstrument } from './types.ts';
import { createYahooFetch } from './yahoo-fetch.ts';

/**
 * The other name Yahoo may list an instrument under: `SYMBOL-SM.NS` for an NSE stock (Emerge),
 * the Security Id `SYMBOL.BO` for a BSE stock first asked for by scrip code.
 */
function alternateSpelling(i: WatchedInstrument): string | undefined {
  if (i.exchange === 'NSE') return yahooSymbol(i.symbol, i.exchange, { kind: 'SME' });
  return i.scripCode ? yahooSymbol(i.symbol, i.exchange) : undefined;
}

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

/**
 * Asked of Yahoo (`fields=`): it then answers only these plus a fixed set (type, exchange,
 * market state, delay...), and `currency` is not in that set, so it is asked for.
 */
const FIELDS = [
  'symbol',
  'currency',
  'quoteType',
  'exchangeDataDelayedBy',
  'marketState',
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
  currency: z.string().optional(),
  quoteType: z.string().optional(),
  exchangeDataDelayedBy: finite.nonnegative().optional(),
});

/** Rupees: the only currency our prices are in. */
const RUPEES = 'INR';

/** The library's log lines go to pino: notices and object dumps at debug, problems at warn. */
function libraryLogger(log?: Logger): LibraryLogger {
  const line = (args: unknown[]) =>
    args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
  const debug = (...args: unknown[]) => log?.debug({ library: 'yahoo-finance2' }, line(args));
  const warn = (...args: unknown[]) => log?.warn({ library: 'yahoo-finance2' }, line(args));
  return { debug, info: debug, dir: debug, warn, error: warn };
}

/**
 * The previous close Yahoo gave, or, in an answer without it, the price less the day's change
 * (the fields Yahoo does send for such listings); null when neither is there.
 */
function previousClose(y: z.infer<typeof yahooQuoteSchema>): number | null {
  if (y.regularMarketPreviousClose !== undefined && y.regularMarketPreviousClose > 0) {
    return y.regularMarketPreviousClose;
  }
  if (y.regularMarketChange === undefined) return null;
  const derived = round2(y.regularMarketPrice - y.regularMarketChange);
  return derived > 0 ? derived : null;
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

  /** Symbols already logged for a foreign currency (once each per provider). */
  const foreignLogged = new Set<string>();
  /** Instruments found under their second spelling, by instrument key. */
  const foundAsAlternate = new Set<string>();
  const keyOf = (i: WatchedInstrument) => instrumentKey(i.exchange, i.symbol);
  const spell = (i: WatchedInstrument) =>
    foundAsAlternate.has(keyOf(i)) ? alternateSpelling(i)! : yahooSymbol(i.symbol, i.exchange, i);

  function toQuote(item: unknown, bySymbol: Map<string, WatchedInstrument>): Quote | undefined {
    const parsed = yahooQuoteSchema.safeParse(item);
    if (!parsed.success) return undefined;
    const y = parsed.data;
    const instrument = bySymbol.get(y.symbol.toUpperCase());
    if (!instrument || y.quoteType === 'NONE') return undefined;
    if (y.currency !== undefined && y.currency !== RUPEES) {
      if (!foreignLogged.has(y.symbol)) {
        foreignLogged.add(y.symbol);
        options.log?.warn(
          { symbol: y.symbol, currency: y.currency },
          'yahoo: quote not in rupees, dropped (logged once per symbol)',
        );
      }
      return undefined;
    }
    const prevClose = previousClose(y);
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
      delayMinutes: Math.round(y.exchangeDataDelayedBy ?? 0),
    };
  }

  /** One request to Yahoo for these spellings; library refusals become provider errors. */
  async function ask(symbols: string[]): Promise<unknown[]> {
    try {
      return await yahooFinance.quote(symbols, { fields: [...FIELDS], return: 'array' });
    } catch (err) {
      if (err instanceof QuoteProviderError) throw err;
      // The library refused the answer (schema check, no crumb, an error object from Yahoo).
      throw new QuoteProviderError(`yahoo-finance2: ${err instanceof Error ? err.message : String(err)}`, {
        retryable: false,
        cause: err,
      });
    }
  }

  return {
    name: 'yahoo',
    maxSymbolsPerRequest: 50,
    // Yahoo's exchangeDataDelayedBy for NSE and BSE (docs/live-prices.md).
    delayMinutes: 15,
    calendar: nseCalendar,
    async getQuotes(instruments) {
      if (instruments.length === 0) return [];
      const bySymbol = new Map(instruments.map((i) => [spell(i), i]));
      await sessionCleared;
      const quotes = (await ask([...bySymbol.keys()]))
        .map((item) => toQuote(item, bySymbol))
        .filter((q): q is Quote => q !== undefined);
      const answered = new Set(quotes.map(keyOf));
      const unanswered = instruments.filter((i) => !answered.has(keyOf(i)));
      const retry = unanswered.filter((i) => !foundAsAlternate.has(keyOf(i)) && alternateSpelling(i));
      // A stock asked for as SME that stopped answering may have moved to the main board.
      for (const i of unanswered) foundAsAlternate.delete(keyOf(i));
      if (retry.length === 0) return quotes;
      const byAlternate = new Map(retry.map((i) => [alternateSpelling(i)!, i]));
      for (const item of await ask([...byAlternate.keys()])) {
        const quote = toQuote(item, byAlternate);
        if (!quote) continue;
        foundAsAlternate.add(keyOf(quote));
        quotes.push(quote);
      }
      return quotes;
    },
  };
}
