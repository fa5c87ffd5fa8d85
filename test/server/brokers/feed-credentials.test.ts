/**
 * The feed's token from the operator's connected account (FEED_USER_EMAIL, issue 32 item 2;
 * docs/live-prices.md#streaming-feeds): the server publishes the operator's Kite session on the
 * Redis market bus, and a streamer of its own (another instance, no database) streams with it;
 * when the ticker refuses it (403, Kite's 06:00 expiry) the fallback takes over, and the
 * operator's reconnect brings the stream back with no restart. Another user's connection is
 * never used, and a disconnect clears the token.
 */
import { randomUUID } from 'node:crypto';
import type { FeedCredentials } from '@app/common/market/feed-credentials';
import type { TickBatch } from '@app/common/market/tick-batch';
import { parseConfig } from '@app/config';
import { expect } from 'chai';
import { createRedisBus } from '../../../streamer/src/bus/redis.ts';
import type { MarketBus } from '../../../streamer/src/bus/types.ts';
import { createConfiguredStreamer } from '../../../streamer/src/source.ts';
import type { Streamer } from '../../../streamer/src/streamer.ts';
import { startFakeKiteTicker, type FakeKiteTicker } from '../../helpers/fake-brokers/kite-ticker.ts';
import { apiClient } from '../../helpers/http.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import { captureLog, privateRedis, waitFor } from '../../streamer/helpers.ts';
import { forgetUsers } from '../rules/support.ts';
import { accounts, connectKite, kiteSuite } from './support.ts';

describe("brokers: the feed's token from the operator's connected Kite account (FEED_USER_EMAIL)", function () {
  this.timeout(90_000);
  const redis = privateRedis();
  const operatorEmail = `operator-${randomUUID().slice(0, 8)}@example.com`;
  const { app, fake, users } = kiteSuite(() => ({
    withRedis: true,
    env: { REDIS_URL: redis.server.url, QUOTE_PROVIDER: 'kite', FEED_USER_EMAIL: operatorEmail },
  }));
  let ticker: FakeKiteTicker;
  let aaronToken: number;
  let bus: MarketBus;
  let operator: SignedInUser | undefined;
  let streamer: Streamer | undefined;

  before(async () => {
    ticker = await startFakeKiteTicker();
    // Kite's ticker takes the sessions Kite Connect's login issued (here: the other fake's).
    ticker.acceptIssued(() => fake.issuedTokens());
    // AARON is in the sample holdings the operator's sync brings in.
    aaronToken = ticker.addInstruments([{ symbol: 'AARON', exchange: 'NSE' }])[0]!.token;
  });
  beforeEach(() => {
    bus = createRedisBus(redis.server.url, captureLog().log);
  });
  afterEach(async () => {
    await streamer?.stop();
    streamer = undefined;
    await bus.close();
    if (operator) await forgetUsers(app, [operator]);
    operator = undefined;
  });
  after(async () => {
    await ticker?.close();
  });

  /** Every credentials the bus hands a listener, in order (null: none). */
  function credentialsSeen(): Array<FeedCredentials | null> {
    const seen: Array<FeedCredentials | null> = [];
    bus.onFeedCredentials((c) => void seen.push(c));
    return seen;
  }

  /** The streamer as `npm run streamer` runs it: its own config, the Redis bus, no token, no database. */
  function startStreamer(): Streamer {
    const config = parseConfig(
      {
        QUOTE_PROVIDER: 'kite',
        QUOTE_FALLBACK: 'simulated',
        QUOTE_INTERVAL_MS: '300',
        FEED_BATCH_MS: '100',
        REDIS_URL: redis.server.url,
        KITE_API_KEY: ticker.apiKey,
        KITE_API_URL: ticker.url,
        KITE_WS_URL: ticker.wsUrl,
      },
      'streamer',
    );
    const started = createConfiguredStreamer(config, {
      bus: createRedisBus(redis.server.url, captureLog().log),
      log: captureLog().log,
    });
    started.start();
    return started;
  }

  const aaronFrom = (batches: TickBatch[], source: string, after = 0) =>
    batches.slice(after).find((b) => b.source === source && b.quotes.some((q) => q.symbol === 'AARON'));

  it("streams with the operator's token, falls back on a 403, and is live again after the reconnect", async () => {
    const batches: TickBatch[] = [];
    bus.onBatch((batch) => void batches.push(batch));
    const seen = credentialsSeen();
    streamer = startStreamer();
    await waitFor('the feed falling back without a token', async () => {
      const state = await bus.getFeedState();
      return state?.state === 'fallback' && state.reason?.includes('no Kite access token');
    });

    // Another user connects Kite: their live session is not the feed's.
    const other = await users.make();
    expect(await connectKite(app, fake, other)).to.match(/\/holdings\?connected=kite$/);
    await app.runtime.feedCredentials.idle();
    await waitFor('the credentials read', () => seen.length > 0);
    expect(seen.every((c) => c === null)).to.equal(true);
    expect(ticker.upgrades, 'nothing connected to the ticker').to.deep.equal([]);

    operator = await signIn(app, { email: operatorEmail.toUpperCase() });
    expect(await connectKite(app, fake, operator)).to.match(/\/holdings\?connected=kite$/);
    const firstToken = fake.issuedTokens().at(-1)!;
    await waitFor('the operator token on the bus', () => seen.at(-1)?.accessToken === firstToken);
    expect(seen.at(-1)).to.include({ provider: 'kite' });
    await waitFor('AARON subscribed at Kite', () =>
      ticker.connections().some((c) => c.subscribed.has(aaronToken)),
    );
    const traded = Date.UTC(2026, 10, 27, 4, 30, 15);
    ticker.tick([{ token: aaronToken, ltp: 1234.5, close: 1200, exchangeTime: traded }]);
    const live = await waitFor('a live batch from kite', () => aaronFrom(batches, 'kite'));
    expect(live.quotes.find((q) => q.symbol === 'AARON')).to.include({ ltp: 1234.5, delayMinutes: 0 });
    await waitFor('the feed live', async () => (await bus.getFeedState())?.state === 'live');

    // 06:00 IST: Kite ends the session and refuses it on the upgrade.
    fake.expireTokens();
    ticker.expireToken();
    const refusedAt = batches.length;
    await waitFor('the fallback pricing AARON', () => aaronFrom(batches, 'simulated', refusedAt));
    await waitFor('the feed falling back: the token refused', async () => {
      const state = await bus.getFeedState();
      return state?.state === 'fallback' && /Kite refused the access token \(403/.test(state.reason ?? '');
    });

    // The operator reconnects in Settings; the streamer is not restarted.
    expect(await connectKite(app, fake, operator)).to.match(/\/holdings\?connected=kite$/);
    const secondToken = fake.issuedTokens().at(-1)!;
    expect(secondToken).not.to.equal(firstToken);
    await waitFor('the new token on the bus', () => seen.at(-1)?.accessToken === secondToken);
    await waitFor('AARON subscribed again', () =>
      ticker.connections().some((c) => c.subscribed.has(aaronToken)),
    );
    const backAt = batches.length;
    ticker.tick([{ token: aaronToken, ltp: 1240, close: 1200, exchangeTime: traded + 60_000 }]);
    await waitFor('a live batch again', () => aaronFrom(batches, 'kite', backAt));
    await waitFor('the feed live again', async () => (await bus.getFeedState())?.state === 'live');
  });

  it('clears the token when the operator disconnects the account', async () => {
    const seen = credentialsSeen();
    operator = await signIn(app, { email: operatorEmail });
    await connectKite(app, fake, operator);
    const token = fake.issuedTokens().at(-1)!;
    await waitFor('the token on the bus', () => seen.at(-1)?.accessToken === token);

    const [account] = await accounts(app, operator);
    const res = await apiClient(app.url).delete(`/api/brokers/${account!.broker_account_id}`, operator.token);
    expect(res.status).to.equal(200);
    await waitFor('the token cleared', () => seen.length > 1 && seen.at(-1) === null);

    // A streamer started later finds none.
    const later: Array<FeedCredentials | null> = [];
    bus.onFeedCredentials((c) => void later.push(c));
    await waitFor('the current credentials', () => later.length > 0);
    expect(later).to.deep.equal([null]);
  });
});
