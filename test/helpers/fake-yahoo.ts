/**
 * A fake Yahoo Finance for provider tests: a local HTTP server answering what yahoo-finance2
 * asks for, in Yahoo's shapes. The session handshake: a page (`/quote/AAPL` of
 * finance.yahoo.com, or `/` of fc.yahoo.com) sets the `A3` cookie for `.yahoo.com`, and
 * `/v1/test/getcrumb` returns a crumb for it. The v7 quote API
 * (`/v7/finance/quote?symbols=A.NS,B.BO&crumb=…`) answers with every field the library's schema
 * requires of an equity quote. Quote requests are answered by a script, one step per request,
 * then OK. Point the provider at `baseUrl` (YAHOO_BASE_URL): it sends every Yahoo host here.
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

export interface FakeYahooRequest {
  symbols: string[];
  crumb: string | null;
  cookie: string | undefined;
  status: number;
  /** Epoch ms when it arrived. */
  at: number;
}

export interface FakeYahoo {
  baseUrl: string;
  /** Queues answers for the next quote requests. */
  script(...steps: FakeYahooStep[]): void;
  /** Sets the price served for a Yahoo symbol (default: a stable price from its letters). */
  setPrice(yahooSymbol: string, price: number, previousClose?: number): void;
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

/** An equity quote as Yahoo's v7 API gives it for an NSE (`.NS`) or BSE (`.BO`) symbol. */
function yahooQuote(symbol: string, price: number, previousClose: number, at: number) {
  const bse = symbol.endsWith('.BO');
  return {
    language: 'en-US',
    region: 'US',
    quoteType: 'EQUITY',
    typeDisp: 'Equity',
    quoteSourceName: 'Delayed Quote',
    triggerable: false,
    customPriceAlertConfidence: 'LOW',
    currency: 'INR',
    marketState: 'REGULAR',
    tradeable: false,
    cryptoTradeable: false,
    exchange: bse ? 'BSE' : 'NSI',
    exchangeTimezoneName: 'Asia/Kolkata',
    exchangeTimezoneShortName: 'IST',
    gmtOffSetMilliseconds: 19_800_000,
    market: 'in_market',
    esgPopulated: false,
    sourceInterval: 15,
    exchangeDataDelayedBy: 0,
    fullExchangeName: bse ? 'Bombay' : 'NSE',
    priceHint: 2,
    regularMarketPrice: price,
    regularMarketPreviousClose: previousClose,
    regularMarketChange: price - previousClose,
    regularMarketChangePercent: ((price - previousClose) / previousClose) * 100,
    regularMarketTime: at,
    symbol,
  };
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

/** Starts the fake on a free port of 127.0.0.1. */
export async function startFakeYahoo(): Promise<FakeYahoo> {
  const steps: FakeYahooStep[] = [];
  const prices = new Map<string, { price: number; previousClose: number }>();
  const log: FakeYahooRequest[] = [];
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
    if (url.pathname !== '/v7/finance/quote') return send(res, 404, '{"error":"not found"}');
    const symbols = (url.searchParams.get('symbols') ?? '').split(',').filter(Boolean);
    const step = steps.shift() ?? { kind: 'ok' };
    const status = step.kind === 'status' ? step.status : 200;
    log.push({
      symbols,
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
    const now = Math.floor(Date.now() / 1000);
    const result = symbols
      .filter((symbol) => step.kind !== 'ok' || !step.omit?.includes(symbol))
      .map((symbol) => {
        const { price, previousClose } = prices.get(symbol) ?? {
          price: defaultPrice(symbol),
          previousClose: defaultPrice(symbol) - 1,
        };
        const quote: Partial<ReturnType<typeof yahooQuote>> = yahooQuote(symbol, price, previousClose, now);
        if (step.kind === 'malformed') delete quote.marketState;
        return quote;
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
    requests: () => [...log],
    crumbsIssued: () => crumbs,
    paths: () => [...paths],
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
