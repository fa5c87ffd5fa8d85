/**
 * The simulated market prices a listed instrument it has no starter price for from its holders'
 * average buy price, which the watch set carries (issue 17: IDEA bought at ₹7.41 was shown at
 * ₹139.45, +1,781 %). It carries each instrument's ISIN too, Upstox's feed's key (issue 32).
 */
import { expect } from 'chai';
import { loadWatchedInstruments } from '../../../server/src/market/watch-set.ts';
import { appSuite } from '../../helpers/app.ts';
import { signIn } from '../../helpers/users.ts';

describe("market: the watch set carries holders' average buy price to the simulated market", function () {
  this.timeout(30_000);
  // A database of its own, so no other test's IDEA holding moves the average.
  const { app, api } = appSuite({
    env: { DATABASE_URL: undefined, QUOTE_PROVIDER: 'simulated', QUOTE_INTERVAL_MS: '200' },
    embeddedStreamer: true,
  });

  it('prices IDEA around what its holders paid, never at a made-up level', async () => {
    const first = await signIn(app);
    const second = await signIn(app);
    for (const [user, quantity, price] of [
      [first, 1000, 7.41],
      [second, 3000, 8.09],
    ] as const) {
      const res = await api.post(
        '/api/holdings/manual',
        { symbol: 'IDEA', exchange: 'NSE', quantity, average_price: price },
        user.token,
      );
      expect(res.status, res.body.error).to.equal(201);
    }
    // (1000 × 7.41 + 3000 × 8.09) / 4000 = 7.92
    const watched = await loadWatchedInstruments(app.runtime.deps.db);
    expect(watched.find((i) => i.symbol === 'IDEA')).to.deep.equal({
      symbol: 'IDEA',
      exchange: 'NSE',
      referencePrice: 7.92,
      isin: 'INE669E01016',
    });

    let price: number | null = null;
    for (let i = 0; i < 100 && price === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const res = await api.get<Array<{ symbol: string; current_price: number | null }>>(
        '/api/holdings',
        first.token,
      );
      price = res.body.data!.find((h) => h.symbol === 'IDEA')!.current_price;
    }
    expect(price, 'IDEA got a price').to.be.a('number');
    // Start within ±3% (previous close) ±1% (first price), then inside the ±10% circuit band.
    expect(price!).to.be.within(7.92 * 0.85, 7.92 * 1.15);
  });

  it('carries the scrip code of a BSE stock (Yahoo asks for 500325.BO) and its ISIN (Upstox keys BSE_EQ|INE002A01018)', async () => {
    const user = await signIn(app);
    const res = await api.post(
      '/api/holdings/manual',
      { symbol: 'RELIANCE', exchange: 'BSE', quantity: 5, average_price: 1400 },
      user.token,
    );
    expect(res.status, res.body.error).to.equal(201);
    const watched = await loadWatchedInstruments(app.runtime.deps.db);
    expect(watched.find((i) => i.exchange === 'BSE' && i.symbol === 'RELIANCE')).to.deep.equal({
      symbol: 'RELIANCE',
      exchange: 'BSE',
      referencePrice: 1400,
      scripCode: '500325',
      isin: 'INE002A01018',
    });
  });
});
