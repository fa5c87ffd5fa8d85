/**
 * The Yahoo provider and the poller against a fake Yahoo answering with Yahoo's real shapes
 * (test/helpers/fake-yahoo.ts says where each comes from): the delay, the exchange time, the
 * currency, delisted and reduced answers, and NSE Emerge (SME) symbols.
 */
import type { MarketCalendar } from '@app/common/market/calendar';
import { expect } from 'chai';
import { createQuotePoller } from '../../streamer/src/poll.ts';
import { createYahooProvider } from '../../streamer/src/providers/yahoo.ts';
import { FAKE_DELAY_MINUTES, startFakeYahoo, type FakeYahoo } from '../helpers/fake-yahoo.ts';
import { captureLog } from './helpers.ts';

const RELIANCE = { symbol: 'RELIANCE', exchange: 'NSE' as const };
const INFY = { symbol: 'INFY', exchange: 'NSE' as const };
const TCS = { symbol: 'TCS', exchange: 'NSE' as const };
const SIMCA = { symbol: 'SIMCA', exchange: 'NSE' as const };

/** A market that never closes: the too-old rule applies whatever the hour the tests run at. */
const alwaysOpen: MarketCalendar = {
  isMarketOpen: () => true,
  nextOpen: (d) => new Date(d.getTime() + 86_400_000),
  lastClose: () => new Date(0),
};

describe('streamer: Yahoo quotes tell the truth (fake Yahoo with real shapes)', () => {
  let yahoo: FakeYahoo;
  beforeEach(async () => {
    yahoo = await startFakeYahoo();
  });
  afterEach(async () => {
    await yahoo.close();
  });

  const provider = (log = captureLog().log) =>
    createYahooProvider({ baseUrl: yahoo.baseUrl, timeoutMs: 2000, log });

  it("reads Yahoo's delay and exchange time, and asks for the currency", async () => {
    const printed = Math.floor(Date.now() / 1000) - 16 * 60;
    yahoo.setQuote('RELIANCE.NS', { regularMarketTime: printed });
    const [quote] = await provider().getQuotes([RELIANCE]);
    expect(quote).to.include({ symbol: 'RELIANCE', delayMinutes: FAKE_DELAY_MINUTES, asOf: printed * 1000 });
    expect(yahoo.requests()[0]!.fields).to.include.members([
      'currency',
      'exchangeDataDelayedBy',
      'regularMarketTime',
    ]);
  });

  it('serves a quote older than its delay plus two intervals as stale, by its own time', async () => {
    const poller = createQuotePoller({ provider: provider(), intervalMs: 60_000, calendar: alwaysOpen });
    const now = Math.floor(Date.now() / 1000);
    yahoo.setQuote('RELIANCE.NS', { regularMarketTime: now - (15 + 2) * 60 - 30 });
    yahoo.setQuote('INFY.NS', { regularMarketTime: now - 15 * 60 });
    const result = await poller.poll([RELIANCE, INFY]);
    const bySymbol = new Map(result.quotes.map((q) => [q.symbol, q]));
    expect(bySymbol.get('RELIANCE')!.stale, 'older than 15 min + 2 intervals').to.equal(true);
    expect(bySymbol.get('INFY')!.stale, '15 min old: as fresh as a delayed feed gets').to.equal(undefined);
    expect(result).to.include({ fresh: 1, tooOld: 1 });
  });

  it('drops a quote that is not in rupees, and logs it once per symbol', async () => {
    const { log, lines } = captureLog();
    const p = provider(log);
    yahoo.setQuote('INFY.NS', { currency: 'USD' });
    for (let i = 0; i < 3; i++) {
      const quotes = await p.getQuotes([RELIANCE, INFY]);
      expect(quotes.map((q) => q.symbol)).to.deep.equal(['RELIANCE']);
    }
    const logged = lines.filter((l) => l.symbol === 'INFY.NS' && l.currency === 'USD');
    expect(logged).to.have.length(1);
    expect(logged[0]!.msg).to.contain('not in rupees');
  });

  it('keeps the previous close of an answer without regularMarketPreviousClose (price less change)', async () => {
    yahoo.setListing('TCS.NS', 'reduced');
    yahoo.setPrice('TCS.NS', 3250, 3300);
    const [quote] = await provider().getQuotes([TCS]);
    expect(quote).to.include({
      symbol: 'TCS',
      ltp: 3250,
      prevClose: 3300,
      change: -50,
      changePercent: -1.52,
    });
  });

  for (const listing of ['none', 'unknown'] as const) {
    it(`marks a delisted symbol (${listing === 'none' ? 'quoteType NONE' : 'left out'}) unavailable after 3 answers, then asks only hourly`, async () => {
      let clock = Date.now();
      const poller = createQuotePoller({
        provider: provider(),
        now: () => clock,
        unavailable: { afterCycles: 3, recheckMs: 3_600_000 },
      });
      yahoo.setPrice('RELIANCE.NS', 1500, 1480);
      await poller.poll([RELIANCE, INFY]);
      yahoo.setListing('RELIANCE.NS', listing);
      for (let cycle = 1; cycle <= 3; cycle++) {
        clock += 60_000;
        const result = await poller.poll([RELIANCE, INFY]);
        const reliance = result.quotes.find((q) => q.symbol === 'RELIANCE')!;
        expect(reliance, `cycle ${cycle}`).to.include({ ltp: 1500, stale: true });
        expect(reliance.unavailable, `cycle ${cycle}`).to.equal(cycle === 3 ? true : undefined);
      }
      const asked = () => yahoo.requests().flatMap((r) => r.symbols);
      const before = asked().length;
      clock += 60_000;
      const resting = await poller.poll([RELIANCE, INFY]);
      expect(asked().slice(before), 'not asked while unavailable').to.deep.equal(['INFY.NS']);
      expect(resting.quotes.find((q) => q.symbol === 'RELIANCE')).to.include({
        ltp: 1500,
        stale: true,
        unavailable: true,
      });
      expect(resting.unavailable).to.equal(1);
      clock += 3_600_000;
      const again = asked().length;
      await poller.poll([RELIANCE, INFY]);
      expect(asked().slice(again), 'asked again after an hour').to.include('RELIANCE.NS');
      yahoo.setListing('RELIANCE.NS', 'equity');
      clock += 3_600_000;
      const back = await poller.poll([RELIANCE, INFY]);
      const reliance = back.quotes.find((q) => q.symbol === 'RELIANCE')!;
      expect(reliance.unavailable, 'priced again: no longer unavailable').to.equal(undefined);
    });
  }

  it('polls an NSE Emerge (SME) stock as SYMBOL-SM.NS and maps it back to the plain symbol', async () => {
    yahoo.setListing('SIMCA.NS', 'unknown');
    yahoo.setListing('SIMCA-SM.NS', 'equity');
    yahoo.setPrice('SIMCA-SM.NS', 120.05, 118);
    const p = provider();
    const [first] = await p.getQuotes([SIMCA, RELIANCE]);
    const quotes = await p.getQuotes([SIMCA, RELIANCE]);
    expect(first).to.be.an('object');
    const simca = quotes.find((q) => q.symbol === 'SIMCA')!;
    expect(simca).to.include({ symbol: 'SIMCA', exchange: 'NSE', ltp: 120.05, prevClose: 118 });
    expect(yahoo.requests().map((r) => r.symbols)).to.deep.equal([
      ['SIMCA.NS', 'RELIANCE.NS'],
      ['SIMCA-SM.NS'],
      ['SIMCA-SM.NS', 'RELIANCE.NS'],
    ]);
  });

  it('polls a BSE stock by its scrip code (500325.BO), and by Security Id when Yahoo lacks the code', async () => {
    const relianceBse = { symbol: 'RELIANCE', exchange: 'BSE' as const, scripCode: '500325' };
    const colab = { symbol: 'COLAB', exchange: 'BSE' as const, scripCode: '543213' };
    yahoo.setPrice('500325.BO', 1491.2, 1480.5);
    yahoo.setListing('543213.BO', 'unknown');
    yahoo.setPrice('COLAB.BO', 18.4, 18);
    const p = provider();
    await p.getQuotes([relianceBse, colab]);
    const quotes = await p.getQuotes([relianceBse, colab]);
    expect(quotes.find((q) => q.symbol === 'RELIANCE')).to.include({ exchange: 'BSE', ltp: 1491.2 });
    expect(quotes.find((q) => q.symbol === 'COLAB')).to.include({ exchange: 'BSE', ltp: 18.4 });
    expect(yahoo.requests().map((r) => r.symbols)).to.deep.equal([
      ['500325.BO', '543213.BO'],
      ['COLAB.BO'],
      ['500325.BO', 'COLAB.BO'],
    ]);
  });
});
