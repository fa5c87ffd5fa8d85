import { expect } from 'chai';
import { createQuotePoller } from '../../streamer/src/poll.ts';
import { createYahooProvider } from '../../streamer/src/providers/yahoo.ts';
import { QuoteProviderError } from '../../streamer/src/providers/types.ts';
import { createYahooFetch } from '../../streamer/src/providers/yahoo-fetch.ts';
import { FAKE_CRUMB, FAKE_DELAY_MINUTES, startFakeYahoo, type FakeYahoo } from '../helpers/fake-yahoo.ts';
import { captureLog, manyInstruments } from './helpers.ts';

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'dir'] as const;

/** Runs `body` with the console's methods recording instead of printing; returns what was printed. */
async function consoleDuring(body: () => Promise<void>): Promise<string[]> {
  const printed: string[] = [];
  const saved = CONSOLE_METHODS.map((m) => [m, console[m]] as const);
  for (const m of CONSOLE_METHODS)
    console[m] = (...args: unknown[]) => void printed.push(`${m}: ${args.join(' ')}`);
  try {
    await body();
  } finally {
    for (const [m, fn] of saved) console[m] = fn;
  }
  return printed;
}

const RELIANCE = { symbol: 'RELIANCE', exchange: 'NSE' as const };
const TCS_BSE = { symbol: 'TCS', exchange: 'BSE' as const };
const INFY = { symbol: 'INFY', exchange: 'NSE' as const };

describe('streamer: Yahoo provider (against a fake Yahoo)', () => {
  let yahoo: FakeYahoo;
  beforeEach(async () => {
    yahoo = await startFakeYahoo();
  });
  afterEach(async () => {
    await yahoo.close();
  });

  const provider = () => createYahooProvider({ baseUrl: yahoo.baseUrl, timeoutMs: 2000 });
  const poller = (backoff = {}) =>
    createQuotePoller({
      provider: provider(),
      backoff: { baseMs: 20, capMs: 100, maxWaitMs: 3000, ...backoff },
    });

  it('asks for SYMBOL.NS / SYMBOL.BO with the session crumb and maps the answer back', async () => {
    yahoo.setPrice('RELIANCE.NS', 1490.5, 1480);
    yahoo.setPrice('TCS.BO', 3250, 3300);
    const p = provider();
    const before = Date.now();
    const quotes = await p.getQuotes([RELIANCE, TCS_BSE]);
    expect(quotes).to.have.length(2);
    const [reliance, tcs] = quotes;
    expect(reliance).to.include({
      symbol: 'RELIANCE',
      exchange: 'NSE',
      ltp: 1490.5,
      prevClose: 1480,
      change: 10.5,
    });
    expect(reliance!.changePercent).to.equal(0.71);
    // Yahoo's NSE feed is 15 minutes late: the exchange time is 15 minutes behind the clock.
    const delayMs = FAKE_DELAY_MINUTES * 60_000;
    expect(reliance!.asOf).to.be.within(before - delayMs - 2000, Date.now() - delayMs + 1000);
    expect(reliance!.delayMinutes).to.equal(15);
    expect(tcs).to.include({ symbol: 'TCS', exchange: 'BSE', ltp: 3250, prevClose: 3300, change: -50 });
    await p.getQuotes([INFY]);
    const requests = yahoo.requests();
    expect(requests[0]!.symbols).to.deep.equal(['RELIANCE.NS', 'TCS.BO']);
    expect(requests.every((r) => r.crumb === FAKE_CRUMB && r.cookie?.includes('A3='))).to.equal(true);
    expect(yahoo.crumbsIssued(), 'the session is reused').to.equal(1);
  });

  it("goes through yahoo-finance2's handshake against the fake: cookie page, crumb, then quotes", async () => {
    const quotes = await provider().getQuotes([RELIANCE]);
    expect(quotes.map((q) => q.symbol)).to.deep.equal(['RELIANCE']);
    expect(yahoo.paths()).to.deep.equal(['/quote/AAPL', '/v1/test/getcrumb', '/v7/finance/quote']);
  });

  it('fetches a new crumb when Yahoo refuses the session (401)', async () => {
    yahoo.script({ kind: 'status', status: 401 });
    const result = await poller().poll([RELIANCE]);
    expect(result.fresh).to.equal(1);
    expect(result.errors.map((e) => e.status)).to.deep.equal([401]);
    expect(yahoo.crumbsIssued()).to.equal(2);
  });

  it('chunks 120 symbols into 3 requests of at most 50', async () => {
    const result = await poller().poll(manyInstruments(120));
    expect(yahoo.requests().map((r) => r.symbols.length)).to.deep.equal([50, 50, 20]);
    expect(result.fresh).to.equal(120);
    expect(result.requests).to.equal(3);
    expect(new Set(result.quotes.map((q) => q.symbol)).size).to.equal(120);
  });

  it('honours 429 Retry-After before asking again', async () => {
    yahoo.script({ kind: 'status', status: 429, retryAfter: '1' });
    const result = await poller().poll([RELIANCE, INFY]);
    expect(result.fresh).to.equal(2);
    expect(result.errors).to.deep.equal([
      { message: result.errors[0]!.message, status: 429, retryable: true },
    ]);
    const [limited, retried] = yahoo.requests();
    expect(retried!.at - limited!.at).to.be.at.least(950);
  });

  it('serves last prices as stale while a long Retry-After runs, without asking Yahoo', async () => {
    const p = poller();
    yahoo.setPrice('RELIANCE.NS', 1500, 1480);
    await p.poll([RELIANCE]);
    yahoo.script({ kind: 'status', status: 429, retryAfter: '120' });
    yahoo.setPrice('RELIANCE.NS', 1510, 1480);
    const limited = await p.poll([RELIANCE]);
    expect(limited.quotes).to.deep.equal([{ ...limited.quotes[0], ltp: 1500, stale: true }]);
    expect(limited.backoffUntil).to.be.greaterThan(Date.now() + 100_000);
    const waiting = await p.poll([RELIANCE]);
    expect(waiting.requests, 'no request while backing off').to.equal(0);
    expect(waiting.quotes[0]).to.include({ ltp: 1500, stale: true });
    expect(yahoo.requests()).to.have.length(2);
  });

  it('retries a 500 with back-off', async () => {
    yahoo.script({ kind: 'status', status: 500 }, { kind: 'status', status: 503 });
    const result = await poller().poll([RELIANCE]);
    expect(result.fresh).to.equal(1);
    expect(result.errors.map((e) => e.status)).to.deep.equal([500, 503]);
    expect(yahoo.requests().map((r) => r.status)).to.deep.equal([500, 503, 200]);
  });

  it('marks quotes stale with their last price when every attempt fails', async () => {
    const p = poller({ maxAttempts: 3 });
    yahoo.setPrice('RELIANCE.NS', 1500, 1480);
    await p.poll([RELIANCE, INFY]);
    yahoo.script(...Array(3).fill({ kind: 'status', status: 500 }));
    const result = await p.poll([RELIANCE, INFY]);
    expect(result.requests).to.equal(3);
    expect(result.stale).to.equal(2);
    expect(result.quotes.every((q) => q.stale === true)).to.equal(true);
    expect(result.quotes.find((q) => q.symbol === 'RELIANCE')!.ltp).to.equal(1500);
  });

  it('marks a symbol missing from a partial answer stale, with its last price', async () => {
    const p = poller();
    yahoo.setPrice('INFY.NS', 1580, 1600);
    await p.poll([RELIANCE, INFY]);
    yahoo.script({ kind: 'ok', omit: ['INFY.NS'] });
    yahoo.setPrice('INFY.NS', 1590, 1600);
    const result = await p.poll([RELIANCE, INFY]);
    expect(result.fresh).to.equal(1);
    const infy = result.quotes.find((q) => q.symbol === 'INFY')!;
    expect(infy).to.include({ ltp: 1580, stale: true });
    expect(result.quotes.find((q) => q.symbol === 'RELIANCE')!.stale).to.equal(undefined);
  });

  it("reports an answer that fails the library's schema check, without retrying, and serves stale", async () => {
    const p = poller();
    await p.poll([RELIANCE]);
    yahoo.script({ kind: 'malformed' });
    const result = await p.poll([RELIANCE]);
    expect(result.errors).to.have.length(1);
    expect(result.errors[0]).to.include({ retryable: false });
    expect(result.errors[0]!.message).to.match(/^yahoo-finance2: /);
    expect(result.quotes).to.have.length(1);
    expect(result.quotes[0]).to.include({ symbol: 'RELIANCE', stale: true });
    expect(yahoo.requests()).to.have.length(2);
  });

  it('prints nothing on the console: library notices and warnings go to the log', async () => {
    const { log, lines } = captureLog();
    const printed = await consoleDuring(async () => {
      const p = createQuotePoller({
        provider: createYahooProvider({ baseUrl: yahoo.baseUrl, timeoutMs: 2000, log }),
        backoff: { baseMs: 20, capMs: 100, maxWaitMs: 3000 },
      });
      yahoo.script(
        { kind: 'status', status: 429, retryAfter: '0' },
        { kind: 'status', status: 401 },
        { kind: 'status', status: 404 },
      );
      await p.poll([RELIANCE]);
      yahoo.script({ kind: 'malformed' });
      await p.poll([RELIANCE]);
      await p.poll([RELIANCE, INFY]);
    });
    expect(printed).to.deep.equal([]);
    expect(lines.some((l) => l.library === 'yahoo-finance2')).to.equal(true);
  });

  it('sends every Yahoo host to YAHOO_BASE_URL and refuses any other host', async () => {
    const yahooFetch = createYahooFetch({
      baseUrl: yahoo.baseUrl,
      timeoutMs: 2000,
      onSessionRefused: async () => {},
    });
    for (const url of [
      'https://fc.yahoo.com/',
      'https://finance.yahoo.com/quote/AAPL',
      'https://query2.finance.yahoo.com/v7/finance/quote?symbols=RELIANCE.NS',
    ]) {
      const answer = await yahooFetch(url);
      await answer.body?.cancel();
    }
    expect(yahoo.paths()).to.deep.equal(['/', '/quote/AAPL', '/v7/finance/quote']);
    expect(yahoo.requests()[0]!.symbols).to.deep.equal(['RELIANCE.NS']);
    try {
      await yahooFetch('https://registry.npmjs.org/yahoo-finance2');
      expect.fail('should refuse');
    } catch (err) {
      expect(err).to.be.instanceOf(QuoteProviderError);
      expect((err as QuoteProviderError).retryable).to.equal(false);
    }
    expect(yahoo.paths()).to.have.length(3);
  });

  it('treats an unreachable Yahoo as a retryable failure', async () => {
    const p = createYahooProvider({ baseUrl: yahoo.baseUrl, timeoutMs: 2000 });
    await yahoo.close();
    try {
      await p.getQuotes([RELIANCE]);
      expect.fail('should throw');
    } catch (err) {
      expect(err).to.be.instanceOf(QuoteProviderError);
      expect((err as QuoteProviderError).retryable).to.equal(true);
    }
    yahoo = await startFakeYahoo();
  });
});
