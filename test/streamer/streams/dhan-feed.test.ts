/**
 * QUOTE_PROVIDER=dhan end to end in the streamer (docs/live-prices.md#dhan): Dhan's scrip master
 * CSV read from its URL maps our symbols to security ids in NSE_EQ / BSE_EQ, the live feed's ticks
 * reach the bus as tick batches from `dhan` with no delay and the exchange's time; a kill of the
 * feed, its disconnect 807 (token expired), an instrument Dhan does not list and a flood.
 */
import { parseConfig } from '@app/config';
import { expect } from 'chai';
import { createMemoryBus } from '../../../streamer/src/bus/memory.ts';
import { createConfiguredStreamer } from '../../../streamer/src/source.ts';
import { startFakeDhanFeed, type FakeDhanFeed } from '../../helpers/fake-brokers/dhan-feed.ts';
import {
  DHAN_OTHER_LINES,
  dhanEquity,
  startFakeScripMasters,
  type FakeScripMasters,
} from '../../helpers/fake-brokers/scrip-masters.ts';
import { captureLog, manyInstruments, sleep, waitFor } from '../helpers.ts';
import { runBrokerFeed } from './broker-feed-harness.ts';

const traded = Date.UTC(2026, 10, 27, 4, 30, 15);
/** Dhan's LTT: Indian wall-clock seconds counted as if UTC. */
const ltt = (ms: number) => ms / 1000 + 330 * 60;
const WATCH = [
  { symbol: 'HDFCBANK', exchange: 'NSE' as const },
  { symbol: 'TCS', exchange: 'BSE' as const },
  { symbol: 'INFY', exchange: 'NSE' as const },
];

describe('streamer: QUOTE_PROVIDER=dhan against the fake live feed and scrip master', function () {
  this.timeout(60_000);
  let fake: FakeDhanFeed;
  let masters: FakeScripMasters;
  before(async () => (masters = await startFakeScripMasters()));
  after(() => masters.close());
  beforeEach(async () => {
    fake = await startFakeDhanFeed();
    fake.tokens.set('token-1', '1100003626');
    masters.dhan = [
      dhanEquity('NSE', 'HDFCBANK', '1333', 'HDFC BANK LTD'),
      dhanEquity('BSE', 'TCS', '532540', 'TATA CONSULTANCY SERVICES LTD.'),
      dhanEquity('NSE', 'M&M', '2031', 'MAHINDRA & MAHINDRA, LTD'),
      ...DHAN_OTHER_LINES,
    ];
    masters.release();
  });
  afterEach(() => fake.close());

  const env = (token = 'token-1') => ({
    QUOTE_PROVIDER: 'dhan',
    QUOTE_FALLBACK: 'simulated',
    QUOTE_INTERVAL_MS: '300',
    FEED_BATCH_MS: '100',
    DHAN_WS_URL: fake.url,
    DHAN_SCRIP_MASTER_URL: masters.dhanUrl,
    DHAN_ACCESS_TOKEN: token,
    DHAN_CLIENT_ID: '1100003626',
  });

  it('polls the fallback until the scrip master loads, then streams live; an unlisted instrument stays polled', async () => {
    masters.hold();
    const run = await runBrokerFeed(env(), WATCH);
    try {
      await waitFor('HDFCBANK from the fallback before the master', () =>
        run.quotesOf('HDFCBANK').find((q) => q.source === 'simulated'),
      );
      expect(fake.subscribed().size).to.equal(0);
      expect((await run.bus.getFeedState())?.state).to.equal('fallback');

      masters.release();
      await waitFor('both subscribed by security id', () => fake.subscribed().size === 2);
      expect([...fake.subscribed()].sort()).to.deep.equal(['BSE_EQ|532540', 'NSE_EQ|1333']);
      await waitFor('live', async () => (await run.bus.getFeedState())?.state === 'live');
      fake.tick('NSE_EQ|1333', 1612.4, ltt(traded));
      const quote = await waitFor('HDFCBANK from dhan', () =>
        run.quotesOf('HDFCBANK').find((q) => q.source === 'dhan' && q.ltp === 1612.4),
      );
      expect(quote).to.include({ exchange: 'NSE', asOf: traded, delayMinutes: 0 });

      const state = await run.bus.getFeedState();
      expect(state).to.deep.include({ provider: 'dhan', state: 'live' });
      expect(state?.instruments.unsupported).to.deep.equal(['NSE:INFY']);
      const before = run.quotesOf('INFY').length;
      await waitFor(
        'INFY (not in the master) still polled while live',
        () => run.quotesOf('INFY').length > before,
      );
    } finally {
      await run.stop();
    }
  });

  it('reconnects and subscribes again when the feed is killed mid-stream', async () => {
    const run = await runBrokerFeed(env(), WATCH);
    try {
      await waitFor('subscribed', () => fake.subscribed().size === 2);
      fake.tick('NSE_EQ|1333', 1600, ltt(traded));
      await waitFor('a first quote', () => run.quotesOf('HDFCBANK').find((q) => q.ltp === 1600));
      await fake.kill();
      await sleep(300);
      await fake.restart();
      await waitFor('subscribed again', () => fake.subscribed().size === 2);
      fake.tick('BSE_EQ|532540', 3915.05, ltt(traded + 1000));
      const quote = await waitFor('TCS after the restart', () =>
        run.quotesOf('TCS').find((q) => q.ltp === 3915.05),
      );
      expect(quote).to.include({ source: 'dhan', exchange: 'BSE', delayMinutes: 0 });
    } finally {
      await run.stop();
    }
  });

  it("falls back on Dhan's disconnect 807 (token expired) and streams again with a fresh token", async () => {
    const run = await runBrokerFeed(env(), WATCH);
    try {
      await waitFor('subscribed', () => fake.subscribed().size === 2);
      await waitFor('live', async () => (await run.bus.getFeedState())?.state === 'live');
      fake.tokens.delete('token-1');
      fake.disconnectAll(807);
      const refused = await waitFor('the fallback in force', async () => {
        const state = await run.bus.getFeedState();
        return state?.state === 'fallback' ? state : undefined;
      });
      expect(refused).to.include({ provider: 'dhan', fallback: 'simulated' });
      expect(refused.reason).to.equal('disconnect 807: access token expired');
      const published = run.batches.length;
      await waitFor('HDFCBANK from the fallback', () =>
        run.batches
          .slice(published)
          .find((b) => b.source === 'simulated' && b.quotes.some((q) => q.symbol === 'HDFCBANK')),
      );

      fake.tokens.set('token-2', '1100003626');
      run.feed.setCredentials({ accessToken: 'token-2', clientId: '1100003626' });
      await waitFor('subscribed with the fresh token', () => fake.subscribed().size === 2);
      fake.tick('NSE_EQ|1333', 1620, ltt(traded));
      await waitFor('HDFCBANK from dhan', () =>
        run.quotesOf('HDFCBANK').find((q) => q.source === 'dhan' && q.ltp === 1620),
      );
      expect((await run.bus.getFeedState())?.state).to.equal('live');
    } finally {
      await run.stop();
    }
  });

  it("without a token polls the fallback, and streams once the operator's token arrives", async () => {
    const { DHAN_ACCESS_TOKEN: _token, ...noToken } = env();
    const run = await runBrokerFeed(noToken, WATCH);
    try {
      const waiting = await waitFor('the fallback in force', async () => {
        const state = await run.bus.getFeedState();
        return state?.state === 'fallback' ? state : undefined;
      });
      expect(waiting.reason).to.contain('no Dhan access token');
      expect(fake.sockets.size).to.equal(0);
      run.feed.setCredentials({ accessToken: 'token-1', clientId: '1100003626' });
      await waitFor('subscribed', () => fake.subscribed().size === 2);
      fake.tick('NSE_EQ|1333', 1611, ltt(traded));
      await waitFor('HDFCBANK from dhan', () =>
        run.quotesOf('HDFCBANK').find((q) => q.source === 'dhan' && q.ltp === 1611),
      );
    } finally {
      await run.stop();
    }
  });

  it('coalesces a flood of 2,000 instruments ticking several times a second into batches, the latest price winning', async () => {
    const watched = manyInstruments(2000);
    const id = (i: number) => String(20_001 + i);
    masters.dhan = watched.map((w, i) => dhanEquity('NSE', w.symbol, id(i)));
    const run = await runBrokerFeed({ ...env(), FEED_BATCH_MS: '200' }, watched);
    try {
      await waitFor('2,000 subscribed', () => fake.subscribed().size === 2000, 30_000);
      await waitFor('live', async () => (await run.bus.getFeedState())?.state === 'live');
      const published = run.batches.length;
      let sent = 0;
      for (let round = 1; round <= 4; round++) {
        for (let i = 0; i < watched.length; i++)
          for (let again = 1; again <= 3; again++, sent++)
            fake.tick(`NSE_EQ|${id(i)}`, 1000 + round + again / 4, ltt(traded + round * 1000));
        await sleep(250);
      }
      const last = (symbol: string) => run.quotesOf(symbol).at(-1)?.ltp;
      await waitFor('every instrument at its last price', () =>
        watched.every((w) => last(w.symbol) === 1004.75),
      );
      const flood = run.batches.slice(published).filter((b) => b.source === 'dhan');
      const quotes = flood.reduce((n, b) => n + b.quotes.length, 0);
      for (const batch of flood)
        expect(new Set(batch.quotes.map((q) => q.symbol)).size).to.equal(batch.quotes.length);
      expect(quotes).to.be.lessThan(sent / 2);
    } finally {
      await run.stop();
    }
  });

  it('is built by the configured streamer from its variables', async () => {
    const bus = createMemoryBus();
    await bus.replaceWatchSet(WATCH);
    const streamer = createConfiguredStreamer(parseConfig(env(), 'streamer'), { bus, log: captureLog().log });
    streamer.start();
    try {
      await waitFor('subscribed at Dhan', () => fake.subscribed().size === 2);
    } finally {
      await streamer.stop();
      await bus.close();
    }
  });
});
