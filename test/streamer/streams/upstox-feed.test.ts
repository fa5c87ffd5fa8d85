/**
 * QUOTE_PROVIDER=upstox end to end in the streamer (docs/live-prices.md#upstox): the configured
 * source builds Upstox's stream from UPSTOX_API_URL and UPSTOX_ACCESS_TOKEN, the watch set's
 * ISINs are subscribed at the fake feed, its prices reach the bus as tick batches from `upstox`
 * with no delay, a restart of the feed is followed by a resubscribe, a refused token hands over
 * to the fallback until a fresh one comes, an instrument without ISIN is polled, and a flood is
 * coalesced into one batch per FEED_BATCH_MS.
 */
import type { TickBatch } from '@app/common/market/tick-batch';
import { parseConfig } from '@app/config';
import { expect } from 'chai';
import { createMemoryBus } from '../../../streamer/src/bus/memory.ts';
import type { MarketBus } from '../../../streamer/src/bus/types.ts';
import { createProvider } from '../../../streamer/src/providers/index.ts';
import type { WatchedInstrument } from '../../../streamer/src/providers/types.ts';
import { createConfiguredStreamer } from '../../../streamer/src/source.ts';
import { createStreamingFeed, type StreamingFeed } from '../../../streamer/src/streams/feed.ts';
import { createStream, credentialsFromEnvironment } from '../../../streamer/src/streams/index.ts';
import { startFakeUpstoxFeed, type FakeUpstoxFeed } from '../../helpers/fake-brokers/upstox-feed.ts';
import { captureLog, sleep, waitFor } from '../helpers.ts';

const RELIANCE: WatchedInstrument = { symbol: 'RELIANCE', exchange: 'NSE', isin: 'INE002A01018' };
const RELIANCE_KEY = 'NSE_EQ|INE002A01018';

describe('streamer: QUOTE_PROVIDER=upstox against the fake feed', function () {
  this.timeout(60_000);
  let fake: FakeUpstoxFeed;
  let bus: MarketBus;
  let batches: TickBatch[];
  let running: { stop(): Promise<void> } | undefined;
  beforeEach(async () => {
    fake = await startFakeUpstoxFeed();
    bus = createMemoryBus();
    batches = [];
    bus.onBatch((batch) => void batches.push(batch));
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    await bus.close();
    await fake.close();
  });

  const config = (env: Record<string, string | undefined> = {}) =>
    parseConfig(
      {
        QUOTE_PROVIDER: 'upstox',
        QUOTE_FALLBACK: 'simulated',
        QUOTE_INTERVAL_MS: '300',
        FEED_BATCH_MS: '100',
        UPSTOX_API_URL: fake.url,
        UPSTOX_ACCESS_TOKEN: fake.accessToken,
        ...env,
      },
      'streamer',
    );

  /** The streaming feed as `createConfiguredStreamer` builds it, kept as a StreamingFeed to give it credentials. */
  function startFeed(env: Record<string, string | undefined> = {}): StreamingFeed {
    const c = config(env);
    const { log } = captureLog();
    const feed = createStreamingFeed({
      bus,
      stream: createStream('upstox', c, { log, credentials: credentialsFromEnvironment('upstox', c) }),
      fallback: createProvider({ ...c, QUOTE_PROVIDER: c.QUOTE_FALLBACK }, { log }),
      batchMs: c.FEED_BATCH_MS,
      intervalMs: c.QUOTE_INTERVAL_MS,
      log,
    });
    feed.start();
    running = feed;
    return feed;
  }

  const subscribed = (key: string) => fake.subscriptions().some((keys) => keys.get(key) === 'ltpc');
  const quoteFrom = (source: string, symbol: string, ltp?: number) =>
    batches
      .filter((b) => b.source === source)
      .flatMap((b) => b.quotes)
      .find((q) => q.symbol === symbol && (ltp === undefined || q.ltp === ltp));

  it('publishes Upstox prices as live batches: no delay, the trade time, the previous close', async () => {
    await bus.replaceWatchSet([RELIANCE, { symbol: 'RELIANCE', exchange: 'BSE', isin: 'INE002A01018' }]);
    const streamer = createConfiguredStreamer(config(), { bus, log: captureLog().log });
    streamer.start();
    running = streamer;
    await waitFor(
      'both listings subscribed',
      () => subscribed(RELIANCE_KEY) && subscribed('BSE_EQ|INE002A01018'),
    );
    const request = fake.requests.find((r) => r.json?.method === 'sub')!;
    expect(request.binary, 'the subscribe JSON goes in a binary frame').to.equal(true);

    const traded = Date.UTC(2026, 10, 27, 4, 30, 15);
    fake.tick([
      { key: RELIANCE_KEY, ltp: 1234.55, ltt: traded, cp: 1220.1 },
      { key: 'BSE_EQ|INE002A01018', ltp: 1234.9, ltt: traded, cp: 1220 },
    ]);
    const live = await waitFor('a batch from upstox', () =>
      batches.find((b) => b.source === 'upstox' && b.quotes.length === 2),
    );
    expect(live.quotes.find((q) => q.exchange === 'NSE')).to.include({
      symbol: 'RELIANCE',
      ltp: 1234.55,
      prevClose: 1220.1,
      asOf: traded,
      delayMinutes: 0,
    });
    expect(live.quotes.find((q) => q.exchange === 'BSE')).to.include({ ltp: 1234.9, prevClose: 1220 });
    expect(await bus.getFeedState()).to.include({ provider: 'upstox', state: 'live', delayMinutes: 0 });
  });

  it('reconnects with a new authorised URL and resubscribes after the feed is killed and restarted', async () => {
    await bus.replaceWatchSet([RELIANCE]);
    startFeed();
    await waitFor('subscribed', () => subscribed(RELIANCE_KEY));
    await fake.kill();
    await waitFor('the fallback standing in', async () => (await bus.getFeedState())?.state === 'fallback');
    await fake.restart();
    await waitFor('subscribed again', () => subscribed(RELIANCE_KEY));
    expect(fake.counts).to.deep.equal({ authorize: 2, connections: 2 });
    fake.tick([{ key: RELIANCE_KEY, ltp: 1301.25 }]);
    await waitFor('the price after the restart', () => quoteFrom('upstox', 'RELIANCE', 1301.25));
    expect((await bus.getFeedState())?.state).to.equal('live');
  });

  it('falls back when the token is refused and returns to the stream with a fresh one', async () => {
    await bus.replaceWatchSet([RELIANCE]);
    const feed = startFeed();
    await waitFor('subscribed', () => subscribed(RELIANCE_KEY));

    fake.expireTokens();
    const refused = await waitFor('the refusal reported', async () => {
      const state = await bus.getFeedState();
      return state?.reason?.includes('authorize answered 401 UDAPI100050') && state;
    });
    expect(refused).to.include({ provider: 'upstox', state: 'fallback', fallback: 'simulated' });
    await waitFor('the fallback publishing RELIANCE', () => quoteFrom('simulated', 'RELIANCE'));
    const authorized = fake.counts.authorize;
    await sleep(1000);
    expect(fake.counts.authorize, 'no retry with the refused token').to.equal(authorized);

    feed.setCredentials({ accessToken: fake.issueToken() });
    await waitFor('subscribed with the new token', () => subscribed(RELIANCE_KEY));
    fake.tick([{ key: RELIANCE_KEY, ltp: 1250.5 }]);
    await waitFor('live again', () => quoteFrom('upstox', 'RELIANCE', 1250.5));
    expect((await bus.getFeedState())?.state).to.equal('live');
  });

  it('starts on the fallback without UPSTOX_ACCESS_TOKEN, never calling Upstox, until a token is given', async () => {
    await bus.replaceWatchSet([RELIANCE]);
    const feed = startFeed({ UPSTOX_ACCESS_TOKEN: undefined });
    await waitFor('the fallback publishing RELIANCE', () => quoteFrom('simulated', 'RELIANCE'));
    expect(await bus.getFeedState()).to.include({ provider: 'upstox', state: 'fallback' });
    expect(fake.counts.authorize).to.equal(0);
    feed.setCredentials({ accessToken: fake.accessToken });
    await waitFor('subscribed with the token', () => subscribed(RELIANCE_KEY));
  });

  it('polls an instrument without ISIN from the fallback, and streams it once its ISIN is known', async () => {
    const idea: WatchedInstrument = { symbol: 'IDEA', exchange: 'NSE', referencePrice: 7.92 };
    await bus.replaceWatchSet([RELIANCE, idea]);
    startFeed();
    await waitFor('subscribed', () => subscribed(RELIANCE_KEY));
    await waitFor('IDEA polled from the fallback', () => quoteFrom('simulated', 'IDEA'));
    const state = await bus.getFeedState();
    expect(state).to.include({ state: 'live' });
    expect(state?.instruments).to.include({ streamed: 1, polled: 1 });
    expect(state?.instruments.unsupported).to.deep.equal(['NSE:IDEA']);
    expect(fake.subscriptions().flatMap((keys) => [...keys.keys()])).to.deep.equal([RELIANCE_KEY]);

    await bus.replaceWatchSet([RELIANCE, { ...idea, isin: 'INE669E01016' }]);
    await waitFor('IDEA subscribed by its ISIN', () => subscribed('NSE_EQ|INE669E01016'));
    fake.tick([{ key: 'NSE_EQ|INE669E01016', ltp: 8.05 }]);
    await waitFor('IDEA streamed', () => quoteFrom('upstox', 'IDEA', 8.05));
  });

  it('coalesces a flood of 2,000 instruments into one latest quote per instrument a batch', async () => {
    const flood: WatchedInstrument[] = Array.from({ length: 2000 }, (_, i) => ({
      symbol: `FLOOD${String(i).padStart(4, '0')}`,
      exchange: 'NSE',
      isin: `INE${String(i).padStart(6, '0')}01${i % 10}`,
    }));
    const keys = flood.map((i) => `NSE_EQ|${i.isin!}`);
    await bus.replaceWatchSet(flood);
    startFeed({ FEED_BATCH_MS: '500' });
    await waitFor('all 2,000 subscribed', () => fake.subscriptions()[0]?.size === 2000);
    const rounds = 20;
    await fake.flood(keys, 10, 2000);
    const last = new Map(flood.map((i, n) => [i.symbol, fake.prices.get(keys[n]!)!.ltp]));
    await waitFor('the last round published', () => {
      const latest = new Map<string, number>();
      for (const b of batches) for (const q of b.quotes) latest.set(q.symbol, q.ltp);
      return [...last].every(([symbol, ltp]) => latest.get(symbol) === ltp);
    });
    const streamed = batches.filter((b) => b.source === 'upstox');
    for (const batch of streamed)
      expect(new Set(batch.quotes.map((q) => q.symbol)).size, 'one quote per instrument').to.equal(
        batch.quotes.length,
      );
    const published = streamed.reduce((n, b) => n + b.quotes.length, 0);
    expect(published, 'fewer quotes published than ticks received').to.be.below(rounds * 2000);
  });
});
