import type { Quote, TickBatch } from '@app/common/market/tick-batch';
import { expect } from 'chai';
import { appSuite } from '../../helpers/app.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';

/** The computed fields of GET /api/holdings (docs/holdings.md, Routes and One rounding rule). */
const VALUE_FIELDS = [
  'current_price',
  'purchase_value',
  'market_value',
  'pnl',
  'pnl_percent',
  'day_change',
  'day_change_percent',
] as const;
type Values = Record<(typeof VALUE_FIELDS)[number], number | null>;
type Holding = Values & { symbol: string; quantity: number; average_price: number };

describe('holdings: computed values (GET /api/holdings)', () => {
  // A database of its own: no quote from another test may exist before the first batch.
  const { app, api } = appSuite({ env: { DATABASE_URL: undefined }, embeddedStreamer: false });
  let user: SignedInUser;
  before(async () => {
    user = await signIn(app);
    for (const [symbol, quantity, price] of [
      ['RELIANCE', 10, 1200],
      ['TCS', 3, 3500],
      ['INFY', 4, 1500],
    ] as const) {
      const res = await api.post(
        '/api/holdings/manual',
        { symbol, exchange: 'NSE', quantity, average_price: price },
        user.token,
      );
      expect(res.status).to.equal(201);
    }
  });

  const valuesBySymbol = async () => {
    const res = await api.get<Holding[]>('/api/holdings', user.token);
    expect(res.status).to.equal(200);
    return Object.fromEntries(
      res.body.data!.map((h) => [h.symbol, Object.fromEntries(VALUE_FIELDS.map((f) => [f, h[f]]))]),
    );
  };

  it('before any quote: no price, so no market value, no P&L and no day change (shown as No price and —)', async () => {
    expect((await valuesBySymbol()).RELIANCE).to.deep.equal({
      current_price: null,
      purchase_value: 12000,
      market_value: null,
      pnl: null,
      pnl_percent: null,
      day_change: null,
      day_change_percent: null,
    });
  });

  it('after a tick batch with previous closes: every computed field', async () => {
    const at = Date.now();
    const quote = (symbol: string, ltp: number, prevClose: number | null): Quote => ({
      symbol,
      exchange: 'NSE',
      ltp,
      prevClose,
      change: prevClose === null ? null : ltp - prevClose,
      changePercent: prevClose === null ? null : ((ltp - prevClose) / prevClose) * 100,
      asOf: at,
      delayMinutes: 0,
    });
    const batch: TickBatch = {
      v: 1,
      id: `values-${at}`,
      at,
      source: 'test',
      quotes: [quote('RELIANCE', 1300, 1250), quote('TCS', 3200.5, 3300), quote('INFY', 1510, null)],
    };
    await app.runtime.bus.publishBatch(batch);
    await new Promise((resolve) => setImmediate(resolve));
    await app.runtime.pipeline.idle();

    const values = await valuesBySymbol();
    expect(values.RELIANCE).to.deep.equal({
      current_price: 1300,
      purchase_value: 12000,
      market_value: 13000,
      pnl: 1000,
      pnl_percent: 8.33,
      day_change: 500,
      day_change_percent: 4,
    });
    expect(values.TCS).to.deep.equal({
      current_price: 3200.5,
      purchase_value: 10500,
      market_value: 9601.5,
      pnl: -898.5,
      pnl_percent: -8.56,
      day_change: -298.5,
      day_change_percent: -3.02,
    });
    // A quote without a previous close has a price but no day change.
    expect(values.INFY).to.deep.equal({
      current_price: 1510,
      purchase_value: 6000,
      market_value: 6040,
      pnl: 40,
      pnl_percent: 0.67,
      day_change: null,
      day_change_percent: null,
    });
  });

  it('says how old each price is and how late its source is: quote_as_of, quote_delay_minutes', async () => {
    const before = await api.get<Array<Record<string, unknown>>>('/api/holdings', user.token);
    // Newer than the first batch (a quote never replaces a newer one), as Yahoo prints them: 15 min late.
    const asOf = Date.now() + 1000;
    const quote = (symbol: string, ltp: number, extra: Partial<Quote> = {}): Quote => ({
      symbol,
      exchange: 'NSE',
      ltp,
      prevClose: ltp - 10,
      change: 10,
      changePercent: 1,
      asOf,
      delayMinutes: 15,
      ...extra,
    });
    await app.runtime.bus.publishBatch({
      v: 1,
      id: `delay-${asOf}`,
      at: Date.now(),
      source: 'test',
      quotes: [quote('RELIANCE', 1310), quote('TCS', 3210, { stale: true, unavailable: true })],
    });
    await new Promise((resolve) => setImmediate(resolve));
    await app.runtime.pipeline.idle();
    const res = await api.get<Array<Record<string, unknown>>>('/api/holdings', user.token);
    const bySymbol = new Map(res.body.data!.map((h) => [h.symbol, h]));
    expect(bySymbol.get('RELIANCE')).to.include({
      quote_as_of: new Date(asOf).toISOString(),
      quote_delay_minutes: 15,
      quote_stale: false,
      quote_unavailable: false,
    });
    expect(bySymbol.get('TCS')).to.include({
      current_price: 3210,
      quote_stale: true,
      quote_unavailable: true,
    });
    // The first batch (delay 0) is what INFY still shows.
    expect(bySymbol.get('INFY')).to.include({ quote_delay_minutes: 0 });
    expect(before.body.data!.every((h) => typeof h.quote_as_of === 'string')).to.equal(true);
  });
});
