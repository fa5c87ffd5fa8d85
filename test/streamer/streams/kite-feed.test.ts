/**
 * QUOTE_PROVIDER=kite end to end in the streamer (docs/live-prices.md#streaming-feeds): the
 * configured source builds Kite's stream from its variables, the watch set is subscribed at the
 * fake ticker, its ticks reach the bus as tick batches from `kite` with no delay and the
 * exchange's time, and when Kite refuses the token (06:00 IST) the fallback's prices take over.
 */
import type { TickBatch } from '@app/common/market/tick-batch';
import { ConfigError, parseConfig } from '@app/config';
import { expect } from 'chai';
import { createMemoryBus } from '../../../streamer/src/bus/memory.ts';
import { createConfiguredStreamer } from '../../../streamer/src/source.ts';
import { startFakeKiteTicker, type FakeKiteTicker } from '../../helpers/fake-brokers/kite-ticker.ts';
import { captureLog, waitFor } from '../helpers.ts';

describe('streamer: QUOTE_PROVIDER=kite against the fake ticker', function () {
  this.timeout(30_000);
  let fake: FakeKiteTicker;
  before(async () => {
    fake = await startFakeKiteTicker();
  });
  after(async () => {
    await fake.close();
  });

  const kiteEnv = () => ({
    QUOTE_PROVIDER: 'kite',
    QUOTE_FALLBACK: 'simulated',
    QUOTE_INTERVAL_MS: '300',
    FEED_BATCH_MS: '100',
    KITE_API_KEY: fake.apiKey,
    KITE_API_URL: fake.url,
    KITE_WS_URL: fake.wsUrl,
    KITE_ACCESS_TOKEN: fake.accessToken,
  });

  it('publishes Kite ticks as live batches, then the fallback once Kite refuses the token', async () => {
    const bus = createMemoryBus();
    const batches: TickBatch[] = [];
    bus.onBatch((batch) => void batches.push(batch));
    await bus.replaceWatchSet([{ symbol: 'INFY', exchange: 'NSE', referencePrice: 1500 }]);
    const streamer = createConfiguredStreamer(parseConfig(kiteEnv(), 'streamer'), {
      bus,
      log: captureLog().log,
    });
    streamer.start();
    try {
      await waitFor(
        'INFY subscribed at Kite',
        () => fake.connections()[0]?.subscribed.get(408065) === 'full',
      );
      const traded = Date.UTC(2026, 10, 27, 4, 30, 15);
      fake.tick([{ token: 408065, ltp: 1573.7, close: 1560, exchangeTime: traded }]);
      const live = await waitFor('a batch from kite', () =>
        batches.find((b) => b.source === 'kite' && b.quotes.length > 0),
      );
      expect(live.quotes[0]).to.include({
        symbol: 'INFY',
        exchange: 'NSE',
        ltp: 1573.7,
        prevClose: 1560,
        asOf: traded,
        delayMinutes: 0,
      });
      expect((await bus.getFeedState())?.state).to.equal('live');

      fake.expireToken();
      await waitFor('the fallback publishing INFY', () =>
        batches.find((b) => b.source === 'simulated' && b.quotes.some((q) => q.symbol === 'INFY')),
      );
      expect(await bus.getFeedState()).to.include({
        provider: 'kite',
        state: 'fallback',
        fallback: 'simulated',
      });
    } finally {
      await streamer.stop();
      await bus.close();
    }
  });

  it("takes the operator account's token from the bus over the environment's, and ignores another broker's", async () => {
    const bus = createMemoryBus();
    await bus.replaceWatchSet([{ symbol: 'INFY', exchange: 'NSE', referencePrice: 1500 }]);
    const expiresAt = Date.now() + 3_600_000;
    const today = fake.issueToken();
    // Another broker's session, and the environment's token of yesterday: neither is taken.
    await bus.setFeedCredentials({ provider: 'upstox', accessToken: today, expiresAt });
    const streamer = createConfiguredStreamer(
      parseConfig({ ...kiteEnv(), KITE_ACCESS_TOKEN: 'yesterdays-token' }, 'streamer'),
      { bus, log: captureLog().log },
    );
    streamer.start();
    try {
      await waitFor('the feed falling back: the environment token refused', async () => {
        const state = await bus.getFeedState();
        return state?.state === 'fallback' && /refused/.test(state.reason ?? '');
      });
      expect(fake.connections()).to.have.length(0);
      await bus.setFeedCredentials({ provider: 'kite', accessToken: today, expiresAt });
      await waitFor('INFY subscribed with the account token', () =>
        fake.connections().some((c) => c.subscribed.has(408065)),
      );
    } finally {
      await streamer.stop();
      await bus.close();
    }
  });

  it('refuses Kite and Angel One without their API keys, with a sentence', () => {
    const bus = createMemoryBus();
    const { KITE_API_KEY: _key, ...noKey } = kiteEnv();
    expect(() => createConfiguredStreamer(parseConfig(noKey, 'streamer'), { bus, log: captureLog().log }))
      .to.throw(ConfigError)
      .with.property('message')
      .that.contains('KITE_API_KEY is required when QUOTE_PROVIDER=kite');
    const angelone = parseConfig({ QUOTE_PROVIDER: 'angelone', ANGELONE_FEED_TOKEN: 'abc' }, 'streamer');
    expect(() => createConfiguredStreamer(angelone, { bus, log: captureLog().log }))
      .to.throw(ConfigError)
      .with.property('message')
      .that.contains('ANGELONE_API_KEY is required when QUOTE_PROVIDER=angelone');
  });
});
