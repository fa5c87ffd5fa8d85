/**
 * GET /api/market/feed: where the quote feed stands, as the streamer reports it on the market
 * bus: a polling provider (the embedded simulated market), a broker stream falling back to Yahoo
 * (reported on the bus as the streamer does), and no report at all.
 */
import type { MarketFeedAnswer } from '@app/common/api/market-feed';
import { expect } from 'chai';
import { appSuite } from '../../helpers/app.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import { waitFor } from '../../helpers/wait.ts';

describe('market: GET /api/market/feed with the embedded simulated market', () => {
  const { app, api } = appSuite({ env: { QUOTE_INTERVAL_MS: '200' } });
  let user: SignedInUser;
  before(async () => {
    user = await signIn(app);
  });

  it('needs a signed-in user', async () => {
    expect((await api.get('/api/market/feed')).status).to.equal(401);
  });

  it('says the polling provider is live, with no delay', async () => {
    const answer = await waitFor('the streamer to report', async () => {
      const res = await api.get<MarketFeedAnswer>('/api/market/feed', user.token);
      expect(res.status).to.equal(200);
      return res.body.data!.state === 'live' ? res.body.data! : undefined;
    });
    expect(answer).to.include({ provider: 'simulated', state: 'live', delay_minutes: 0 });
    expect(answer).to.not.have.property('fallback');
    expect(Date.parse(answer.since)).to.be.at.most(Date.now());
    expect(answer.instruments).to.include({ streamed: 0, unsupported_count: 0 });
  });
});

describe('market: GET /api/market/feed for a broker stream (state reported on the bus)', () => {
  const { app, api } = appSuite({ embeddedStreamer: false });
  let user: SignedInUser;
  before(async () => {
    user = await signIn(app);
  });

  it('says honestly that no feed has reported yet', async () => {
    const res = await api.get<MarketFeedAnswer>('/api/market/feed', user.token);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({ provider: 'simulated', state: 'down' });
    expect(res.body.data!.reason).to.match(/not reported/);
  });

  it('answers a stream falling back to Yahoo: which source, why, since when, and what is polled', async () => {
    const since = Date.UTC(2026, 10, 27, 0, 30);
    await app.runtime.bus.setFeedState(
      {
        provider: 'kite',
        state: 'fallback',
        fallback: 'yahoo',
        reason: 'Kite refused the access token (403): reconnect Zerodha in Settings',
        since,
        delayMinutes: 15,
        instruments: { streamed: 0, polled: 3001, unsupported: ['NSE:ZOMATO'], unsupportedCount: 1 },
        at: Date.now(),
      },
      60_000,
    );
    const res = await api.get<MarketFeedAnswer>('/api/market/feed', user.token);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal({
      provider: 'kite',
      state: 'fallback',
      fallback: 'yahoo',
      reason: 'Kite refused the access token (403): reconnect Zerodha in Settings',
      since: '2026-11-27T00:30:00.000Z',
      delay_minutes: 15,
      instruments: { streamed: 0, polled: 3001, unsupported: ['NSE:ZOMATO'], unsupported_count: 1 },
    });
  });
});
