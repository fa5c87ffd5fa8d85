/**
 * QUOTE_PROVIDER=angelone end to end in the streamer (docs/live-prices.md#angel-one): the scrip
 * master read from its URL maps our symbols to Angel's tokens, SmartStream's ticks reach the bus as
 * tick batches from `angelone` with no delay and the exchange's time; a kill of the feed, its 401
 * on the upgrade, an instrument Angel does not list and a flood of 2,000 instruments.
 */
import { ConfigError, parseConfig } from '@app/config';
import { expect } from 'chai';
import { createMemoryBus } from '../../../streamer/src/bus/memory.ts';
import { createConfiguredStreamer } from '../../../streamer/src/source.ts';
import { createStream, credentialsFromEnvironment } from '../../../streamer/src/streams/index.ts';
import type { StreamQuote } from '../../../streamer/src/streams/types.ts';
import { startFakeAngelFeed, type FakeAngelFeed } from '../../helpers/fake-brokers/angelone-feed.ts';
import {
  ANGEL_OTHER_ROWS,
  angelEquity,
  startFakeScripMasters,
  type FakeScripMasters,
} from '../../helpers/fake-brokers/scrip-masters.ts';
import { captureLog, manyInstruments, sleep, waitFor } from '../helpers.ts';
import { runBrokerFeed } from './broker-feed-harness.ts';

const traded = Date.UTC(2026, 10, 27, 4, 30, 15);
const WATCH = [
  { symbol: 'SBIN', exchange: 'NSE' as const },
  { symbol: 'RELIANCE', exchange: 'BSE' as const },
  { symbol: 'INFY', exchange: 'NSE' as const },
];

describe('streamer: QUOTE_PROVIDER=angelone against the fake SmartStream and scrip master', function () {
  this.timeout(60_000);
  let fake: FakeAngelFeed;
  let masters: FakeScripMasters;
  before(async () => (masters = await startFakeScripMasters()));
  after(() => masters.close());
  beforeEach(async () => {
    fake = await startFakeAngelFeed();
    masters.angel = [
      angelEquity('NSE', 'SBIN', '3045'),
      angelEquity('BSE', 'RELIANCE', '500325'),
      ...ANGEL_OTHER_ROWS,
    ];
    masters.release();
  });
  afterEach(() => fake.close());

  const env = (jwt = fake.valid.jwt) => ({
    QUOTE_PROVIDER: 'angelone',
    QUOTE_FALLBACK: 'simulated',
    QUOTE_INTERVAL_MS: '300',
    FEED_BATCH_MS: '100',
    ANGELONE_API_KEY: fake.valid.apiKey,
    ANGELONE_WS_URL: fake.url,
    ANGELONE_SCRIP_MASTER_URL: masters.angelUrl,
    ANGELONE_FEED_TOKEN: fake.valid.feedToken,
    ANGELONE_CLIENT_CODE: fake.valid.clientCode,
    ANGELONE_JWT_TOKEN: jwt,
  });

  it('polls the fallback until the scrip master loads, then streams live; an unlisted instrument stays polled', async () => {
    masters.hold();
    const run = await runBrokerFeed(env(), WATCH);
    try {
      await waitFor('SBIN from the fallback before the master', () =>
        run.quotesOf('SBIN').find((q) => q.source === 'simulated'),
      );
      expect(fake.subscribed().size).to.equal(0);
      expect((await run.bus.getFeedState())?.state).to.equal('fallback');

      masters.release();
      await waitFor('SBIN and RELIANCE subscribed by token', () => fake.subscribed().size === 2);
      expect([...fake.subscribed()].sort()).to.deep.equal(['1|3045', '3|500325']);
      await waitFor('live', async () => (await run.bus.getFeedState())?.state === 'live');
      fake.tick(1, '3045', 81_250n, traded);
      const quote = await waitFor('SBIN from angelone', () =>
        run.quotesOf('SBIN').find((q) => q.source === 'angelone' && q.ltp === 812.5),
      );
      expect(quote).to.include({ exchange: 'NSE', asOf: traded, delayMinutes: 0 });

      const state = await run.bus.getFeedState();
      expect(state).to.deep.include({ provider: 'angelone', state: 'live' });
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
      fake.tick(1, '3045', 81_000n, traded);
      await waitFor('a first quote', () => run.quotesOf('SBIN').find((q) => q.ltp === 810));
      await fake.kill();
      await sleep(300);
      await fake.restart();
      await waitFor('subscribed again', () => fake.subscribed().size === 2);
      fake.tick(3, '500325', 130_015n, traded + 1000);
      const quote = await waitFor('RELIANCE after the restart', () =>
        run.quotesOf('RELIANCE').find((q) => q.ltp === 1300.15),
      );
      expect(quote).to.include({ source: 'angelone', exchange: 'BSE', delayMinutes: 0 });
    } finally {
      await run.stop();
    }
  });

  it('connects again when started after a stop (the streamer losing the lead, then regaining it)', async () => {
    const config = parseConfig(env(), 'streamer');
    const stream = createStream('angelone', config, {
      log: captureLog().log,
      credentials: credentialsFromEnvironment('angelone', config),
    });
    const quotes: StreamQuote[] = [];
    const handlers = { onQuote: (quote: StreamQuote) => void quotes.push(quote), onState: () => {} };
    stream.watch(WATCH);
    stream.start(handlers);
    await waitFor('subscribed', () => fake.subscribed().size === 2);
    await stream.stop();
    await waitFor('closed', () => fake.sockets.size === 0);
    stream.watch(WATCH);
    stream.start(handlers);
    try {
      await waitFor('subscribed again', () => fake.subscribed().size === 2);
      fake.tick(1, '3045', 81_500n, traded);
      await waitFor('a quote after the restart', () => quotes.find((quote) => quote.ltp === 815));
    } finally {
      await stream.stop();
    }
  });

  it("falls back on SmartStream's 401 and streams again once new credentials arrive", async () => {
    const run = await runBrokerFeed(env('expired-jwt'), WATCH);
    try {
      const refused = await waitFor('the fallback in force', async () => {
        const state = await run.bus.getFeedState();
        return state?.reason?.includes('401') ? state : undefined;
      });
      expect(refused).to.include({ provider: 'angelone', state: 'fallback', fallback: 'simulated' });
      expect(refused.reason).to.contain('Invalid Header');
      const published = run.batches.length;
      await waitFor('SBIN from the fallback', () =>
        run.batches
          .slice(published)
          .find((b) => b.source === 'simulated' && b.quotes.some((q) => q.symbol === 'SBIN')),
      );

      run.feed.setCredentials({
        accessToken: fake.valid.feedToken,
        clientId: fake.valid.clientCode,
        authToken: fake.valid.jwt,
      });
      await waitFor('subscribed with the new JWT', () => fake.subscribed().size === 2);
      fake.tick(1, '3045', 82_000n, traded);
      await waitFor('SBIN from angelone', () => run.quotesOf('SBIN').find((q) => q.source === 'angelone'));
      expect((await run.bus.getFeedState())?.state).to.equal('live');
    } finally {
      await run.stop();
    }
  });

  it('coalesces a flood of 2,000 instruments ticking several times a second into batches, the latest price winning', async () => {
    const watched = manyInstruments(2000);
    const token = (i: number) => String(10_001 + i);
    masters.angel = watched.map((w, i) => angelEquity('NSE', w.symbol, token(i)));
    const run = await runBrokerFeed({ ...env(), FEED_BATCH_MS: '200' }, watched);
    try {
      await waitFor('2,000 subscribed over two connections', () => fake.subscribed().size === 2000, 30_000);
      expect(fake.sockets.size).to.equal(2);
      await waitFor('live', async () => (await run.bus.getFeedState())?.state === 'live');
      const published = run.batches.length;
      let sent = 0;
      for (let round = 1; round <= 4; round++) {
        for (let i = 0; i < watched.length; i++)
          for (let again = 1; again <= 3; again++, sent++)
            fake.tick(1, token(i), BigInt(100_000 + round * 10 + again), traded + round * 1000);
        await sleep(250);
      }
      const last = (symbol: string) => run.quotesOf(symbol).at(-1)?.ltp;
      await waitFor('every instrument at its last price', () =>
        watched.every((w) => last(w.symbol) === 1000.43),
      );
      const flood = run.batches.slice(published).filter((b) => b.source === 'angelone');
      const quotes = flood.reduce((n, b) => n + b.quotes.length, 0);
      for (const batch of flood)
        expect(new Set(batch.quotes.map((q) => q.symbol)).size).to.equal(batch.quotes.length);
      expect(quotes).to.be.lessThan(sent / 2);
    } finally {
      await run.stop();
    }
  });

  it('is built by the configured streamer from its variables, and refused without ANGELONE_API_KEY', async () => {
    const bus = createMemoryBus();
    await bus.replaceWatchSet(WATCH);
    const streamer = createConfiguredStreamer(parseConfig(env(), 'streamer'), { bus, log: captureLog().log });
    streamer.start();
    try {
      await waitFor('subscribed at Angel One', () => fake.subscribed().size === 2);
    } finally {
      await streamer.stop();
    }
    const { ANGELONE_API_KEY: _key, ...noKey } = env();
    expect(() => createConfiguredStreamer(parseConfig(noKey, 'streamer'), { bus, log: captureLog().log }))
      .to.throw(ConfigError)
      .with.property('message')
      .that.contains('ANGELONE_API_KEY is required when QUOTE_PROVIDER=angelone');
    await bus.close();
  });
});
