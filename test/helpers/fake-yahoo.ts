/**
 * A fake Yahoo Finance for provider tests: a local HTTP server answering what yahoo-finance2
 * asks for, in Yahoo's shapes. The session handshake: a page (`/quote/AAPL` of
 * finance.yahoo.com, or `/` of fc.yahoo.com) sets the `A3` cookie for `.yahoo.com`, and
 * `/v1/test/getcrumb` returns a crumb for it. The v7 quote API
 * (`/v7/finance/quote?symbols=A.NS,B.BO&fields=…&crumb=…`) answers as Yahoo does. Quote requests
 * are answered by a script, one step per request, then OK. Point the provider at `baseUrl`
 * (YAHOO_BASE_URL): it sends every Yahoo host here.
 *
 * Where each shape comes from (recorded Yahoo answers, not our guesses):
 * - An NSE equity: `quoteResponse.result[]` entries for CIPLA.NS and RELIANCE.NS recorded in the
 *   README of a public stock tracker (2022): `quoteType: "EQUITY"`, `quoteSourceName: "Delayed
 *   Quote"`, `currency: "INR"`, `exchange: "NSI"`, `fullExchangeName: "NSE"`, `market:
 *   "in_market"`, `exchangeTimezoneName: "Asia/Kolkata"`, `gmtOffSetMilliseconds: 19800000`,
 *   `sourceInterval: 15`, `exchangeDataDelayedBy: 15`, `regularMarketTime` in epoch seconds (15
 *   minutes behind the clock, as a delayed feed is). BSE (`.BO`) follows the same shape.
 * - `fields=`: yahoo-finance2's fixture `tests/http/4-7-2021/quote-TSLA-fields-symbol.json`
 *   (gadicc/node-yahoo-finance2): Yahoo answers the asked fields plus a fixed set (`ESSENTIAL`
 *   below); `currency` and the prices come only when asked for.
 * - A delisted symbol: either left out of `result` (yahoo-finance2 issue #381, "WORK"), or the
 *   eight-field `quoteType: "NONE"` entry recorded there for SRNG and XONE.
 * - The v8 chart API (`/v8/finance/chart/INFY.NS?range=5y&interval=1d&events=div,splits`): a
 *   test hands the fake a recorded answer (`setChart`, e.g. yahoo-finance2's recorded NVDA chart
 *   in the team's samples) and it is served as recorded, whatever symbol it was set for. A symbol
 *   with none set is answered 404 with `chart.result: null` and an error object, the shape
 *   yahoo-finance2's chart module types for Yahoo's errors, with the code and description Yahoo
 *   sends for an unknown symbol as yfinance users quote them (`{'code': 'Not Found',
 *   'description': 'No data found, symbol may be delisted'}`, ranaroussi/yfinance issues #1548
 *   and #2902). Chart requests have their own script
 *   of answers (`scriptChart`), so a 429 there does not disturb the quotes.
 * - A reduced answer: yahoo-finance2 issue #42 (AZT.OL) and fixture `quote-AZT.OL.json`: Yahoo
 *   leaves out fields for some listings; here the previous close and the day's range are left
 *   out, `regularMarketChange` and `regularMarketChangePercent` stay.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer to a quote request. */
export type FakeYahooStep =
  /** 200 with every requested symbol, except those listed (Yahoo symbols, e.g. `INFY.NS`). */
  | { kind: 'ok'; omit?: string[] }
  /** An error status (429, 500, 401...), with an optional Retry-After header value. */
  | { kind: 'status'; status: number; retryAfter?: string }
  /** 200 whose quotes lack fields Yahoo always sends (a changed API), e.g. `marketState`. */
  | { kind: 'malformed' };

/**
 * How Yahoo lists a symbol: `equity` (default; `unknown` for `-SM.NS` spellings), `unknown` (left out of every answer, as a
 * delisted or never-listed symbol is), `none` (answered as `quoteType: "NONE"`, Yahoo's
 * delisted entry) or `reduced` (no previous close).
 */
export type FakeYahooListing = 'equity' | 'unknown' | 'none' | 'reduced';

/** Fields of one symbol's answer to override, in Yahoo's raw units (`regularMarketTime`: epoch s). */
export interface FakeYahooOverrides {
  currency?: string;
  regularMarketTime?: number;
  exchangeDataDelayedBy?: number;
  marketState?: string;
}

export interface FakeYahooRequest {
  symbols: string[];
  /** The `fields` asked for, or null when all were. */
  fields: string[] | null;
  crumb: string | null;
  cookie: string | undefined;
  status: number;
  /** Epoch ms when it arrived. */
  at: number;
}

/** One request to the chart API. */
export interface FakeYahooChartRequest {
  /** The Yahoo symbol in the path (`INFY.NS`). */
  symbol: string;
  /** The query as sent (`range`, `interval`, `events`, …). */
  query: Record<string, string>;
  status: number;
}

export interface FakeYahoo {
  baseUrl: string;
  /** Queues answers for the next quote requests. */
  script(...steps: FakeYahooStep[]): void;
  /** Sets the price served for a Yahoo symbol (default: a stable price from its letters). */
  setPrice(yahooSymbol: string, price: number, previousClose?: number): void;
  /** Sets how Yahoo lists a symbol (default `equity`). */
  setListing(yahooSymbol: string, listing: FakeYahooListing): void;
  /** Overrides fields of a symbol's answer (currency, exchange time, delay...). */
  setQuote(yahooSymbol: string, overrides: FakeYahooOverrides): void;
  /** Sets the chart answer for a Yahoo symbol: the body of a recorded answer (`{"chart": …}`). */
  setChart(yahooSymbol: string, body: string): void;
  /** Queues answers for the next chart requests (`ok`: the symbol's chart, or the 404). */
  scriptChart(...steps: FakeYahooStep[]): void;
  /** Chart requests so far, oldest first. */
  chartRequests(): FakeYahooChartRequest[];
  /** Quote requests so far, oldest first. */
  requests(): FakeYahooRequest[];
  /** How many crumbs were handed out. */
  crumbsIssued(): number;
  /** Every path asked for (any endpoint), oldest first. */
  paths(): string[];
  close(): Promise<void>;
}

export const FAKE_CRUMB = 'fake-crumb-123';
const SESSION_COOKIE = 'A3=fake-session';
/** Paths that hand out the session cookie: the quote page the library loads, and fc.yahoo.com. */
const COOKIE_PAGES = new Set(['/', '/quote/AAPL']);

function defaultPrice(symbol: string): number {
  let sum = 0;
  for (const ch of symbol) sum += ch.charCodeAt(0);
  return 100 + (sum % 900);
}

/** Yahoo's delay for NSE and BSE quotes, minutes (`exchangeDataDelayedBy`). */
export const FAKE_DELAY_MINUTES = 15;

/** What Yahoo sends whatever `fields` asks for (quote-TSLA-fields-symbol.json). */
const ESSENTIAL = new Set([
  'language',
  'region',
  'quoteType',
  'quoteSourceName',
  'triggerable',
  'priceHint',
  'firstTradeDateMilliseconds',
  'fullExchangeName',
  'exchange',
  'exchangeTimezoneName',
  'exchangeTimezoneShortName',
  'gmtOffSetMilliseconds',
  'market',
  'esgPopulated',
  'marketState',
  'sourceInterval',
  'exchangeDataDelayedBy',
  'tradeable',
  'symbol',
]);

/** An equity quote as Yahoo's v7 API gives it for an NSE (`.NS`) or BSE (`.BO`) symbol. */
function yahooQuote(symbol: string, price: number, previousClose: number, marketTime: number) {
  const bse = symbol.endsWith('.BO');
  return {
    language: 'en-US',
    region: 'US',
    quoteType: 'EQUITY',
    typeDisp: 'Equity',
    quoteSourceName: 'Delayed Quote',
    triggerable: true,
    customPriceAlertConfidence: 'HIGH',
    currency: 'INR',
    exchange: bse ? 'BSE' : 'NSI',
    exchangeTimezoneName: 'Asia/Kolkata',
    exchangeTimezoneShortName: 'IST',
    gmtOffSetMilliseconds: 19_800_000,
    marketState: 'REGULAR',
    market: 'in_market',
    esgPopulated: false,
    regularMarketChangePercent: ((price - previousClose) / previousClose) * 100,
    regularMarketPrice: price,
    firstTradeDateMilliseconds: 820_467_900_000,
    priceHint: 2,
    regularMarketChange: price - previousClose,
    regularMarketTime: marketTime,
    regularMarketDayHigh: Math.max(price, previousClose),
    regularMarketDayRange: `${Math.min(price, previousClose)} - ${Math.max(price, previousClose)}`,
    regularMarketDayLow: Math.min(price, previousClose),
    regularMarketPreviousClose: previousClose,
    fullExchangeName: bse ? 'Bombay' : 'NSE',
    financialCurrency: 'INR',
    sourceInterval: 15,
    exchangeDataDelayedBy: FAKE_DELAY_MINUTES,
    tradeable: false,
    cryptoTradeable: false,
    symbol,
  };
}

/** Yahoo's entry for a delisted symbol (yahoo-finance2 issue #381). */
function delistedQuote(symbol: string) {
  return {
    language: 'en-US',
    region: 'US',
    quoteType: 'NONE',
    triggerable: false,
    messageBoardId: 'finmb_130407341',
    esgPopulated: false,
    tradeable: false,
    symbol,
  };
}

/** Only the asked fields and the essential ones, as Yahoo answers a `fields=` request. */
function onlyFields(quote: Record<string, unknown>, fields: string[] | null): Record<string, unknown> {
  if (!fields) return quote;
  return Object.fromEntries(Object.entries(quote).filter(([k]) => ESSENTIAL.has(k) || fields.includes(k)));
}

const CHART_PATH = /^\/v8\/finance\/chart\/([^/]+)$/;
/** Yahoo's error answer for a symbol it has no chart of. */
const NO_CHART = JSON.stringify({
  chart: { result: null, error: { code: 'Not Found', description: 'No data found, symbol may be delisted' } },
});

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

/** Starts the fake on a free port of 127.0.0.1. */
export async function startFakeYahoo(): Promise<FakeYahoo> {
  const steps: FakeYahooStep[] = [];
  const prices = new Map<string, { price: number; previousClose: number }>();
  const listings = new Map<string, FakeYahooListing>();
  const overrides = new Map<string, FakeYahooOverrides>();
  /** Emerge (`-SM.NS`) spellings are unknown unless a test lists one: most stocks are main board. */
  const listingOf = (symbol: string): FakeYahooListing =>
    listings.get(symbol) ?? (symbol.endsWith('-SM.NS') ? 'unknown' : 'equity');
  const log: FakeYahooRequest[] = [];
  const charts = new Map<string, string>();
  const chartSteps: FakeYahooStep[] = [];
  const chartLog: FakeYahooChartRequest[] = [];
  const paths: string[] = [];
  let crumbs = 0;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    paths.push(url.pathname);
    if (COOKIE_PAGES.has(url.pathname)) {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'set-cookie': `${SESSION_COOKIE}; Max-Age=31557600; Domain=.yahoo.com; Path=/; Secure; HttpOnly; SameSite=None`,
      });
      return res.end('<!doctype html><title>Yahoo Finance</title>');
    }
    if (url.pathname === '/v1/test/getcrumb') {
      if (!req.headers.cookie?.includes(SESSION_COOKIE)) return send(res, 401, 'no session');
      crumbs++;
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(FAKE_CRUMB);
    }
    const chart = CHART_PATH.exec(url.pathname);
    if (chart) {
      const symbol = decodeURIComponent(chart[1]!);
      const step = chartSteps.shift() ?? { kind: 'ok' };
      const body = charts.get(symbol);
      const status = step.kind === 'status' ? step.status : body === undefined ? 404 : 200;
      chartLog.push({ symbol, query: Object.fromEntries(url.searchParams), status });
      if (step.kind === 'status') {
        const headers: Record<string, string> = step.retryAfter ? { 'retry-after': step.retryAfter } : {};
        return send(
          res,
          status,
          JSON.stringify({ chart: { result: null, error: { code: String(status) } } }),
          headers,
        );
      }
      return send(res, status, body ?? NO_CHART);
    }
    if (url.pathname !== '/v7/finance/quote') return send(res, 404, '{"error":"not found"}');
    const symbols = (url.searchParams.get('symbols') ?? '').split(',').filter(Boolean);
    const fieldsParam = url.searchParams.get('fields');
    const fields = fieldsParam ? fieldsParam.split(',').filter(Boolean) : null;
    const step = steps.shift() ?? { kind: 'ok' };
    const status = step.kind === 'status' ? step.status : 200;
    log.push({
      symbols,
      fields,
      crumb: url.searchParams.get('crumb'),
      cookie: req.headers.cookie,
      status,
      at: Date.now(),
    });
    if (step.kind === 'status') {
      const headers: Record<string, string> = step.retryAfter ? { 'retry-after': step.retryAfter } : {};
      return send(
        res,
        step.status,
        JSON.stringify({ finance: { result: null, error: { code: String(step.status) } } }),
        headers,
      );
    }
    const marketTime = Math.floor(Date.now() / 1000) - FAKE_DELAY_MINUTES * 60;
    const result = symbols
      .filter((symbol) => step.kind !== 'ok' || !step.omit?.includes(symbol))
      .filter((symbol) => listingOf(symbol) !== 'unknown')
      .map((symbol) => {
        if (listingOf(symbol) === 'none') return delistedQuote(symbol);
        const { price, previousClose } = prices.get(symbol) ?? {
          price: defaultPrice(symbol),
          previousClose: defaultPrice(symbol) - 1,
        };
        const quote: Record<string, unknown> = {
          ...yahooQuote(symbol, price, previousClose, marketTime),
          ...overrides.get(symbol),
        };
        if (listingOf(symbol) === 'reduced') {
          for (const field of ['regularMarketPreviousClose', 'regularMarketDayHigh', 'regularMarketDayLow'])
            delete quote[field];
          delete quote.regularMarketDayRange;
        }
        if (step.kind === 'malformed') delete quote.marketState;
        return onlyFields(quote, fields);
      });
    send(res, 200, JSON.stringify({ quoteResponse: { result, error: null } }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    script: (...more) => void steps.push(...more),
    setPrice: (symbol, price, previousClose = price) => void prices.set(symbol, { price, previousClose }),
    setListing: (symbol, listing) => void listings.set(symbol, listing),
    setQuote: (symbol, fields) => void overrides.set(symbol, { ...overrides.get(symbol), ...fields }),
    setChart: (symbol, body) => void charts.set(symbol, body),
    scriptChart: (...more) => void chartSteps.push(...more),
    chartRequests: () => [...chartLog],
    requests: () => [...log],
    crumbsIssued: () => crumbs,
    paths: () => [...paths],
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
