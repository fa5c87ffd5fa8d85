/**
 * Stored quotes and bars at a streaming feed's pace (server/src/market/store-pace.ts): half-second
 * batches are written every QUOTE_STORE_MS, merged: the latest quote per instrument, every tick
 * in the bars (a dip inside the interval still sets the minute's low), the stages after a store
 * run once per batch, after its write.
 */
import type { Quote, TickBatch } from '@app/common/market/tick-batch';
import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { queryRows } from '../../../server/src/db/client.ts';
import { createPacedStore } from '../../../server/src/market/store-pace.ts';
import { appSuite } from '../../helpers/app.ts';
import { waitFor } from '../../helpers/wait.ts';

describe('market: stored quotes at a feed pace', () => {
  const { app } = appSuite({ embeddedStreamer: false });
  const log = pino({ level: 'silent' });
  const tag = () => `P${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
  // This minute: the retention job drops minute bars of earlier days while a test runs.
  const t0 = Math.floor(Date.now() / 60_000) * 60_000 + 10;
  const quote = (symbol: string, ltp: number, asOf: number): Quote => ({
    symbol,
    exchange: 'NSE',
    ltp,
    prevClose: 100,
    change: ltp - 100,
    changePercent: ltp - 100,
    asOf,
    delayMinutes: 0,
  });
  const batch = (quotes: Quote[]): TickBatch => ({ v: 1, id: tag(), at: Date.now(), source: 'kite', quotes });
  const ltpOf = async (symbol: string) =>
    (
      await queryRows<{ ltp: string }>(
        app.runtime.deps.db,
        sql`select ltp::text from quotes where symbol = ${symbol} and exchange = 'NSE'`,
      )
    )[0]?.ltp;
  const minuteBar = async (symbol: string) =>
    (
      await queryRows<{ open: string; high: string; low: string; close: string }>(
        app.runtime.deps.db,
        sql`select open::text, high::text, low::text, close::text from price_bars
            where symbol = ${symbol} and interval = '1m'`,
      )
    )[0];

  it('writes the first batch at once, merges the next ones until the interval is up: latest quote, every tick in the bar', async () => {
    const s = tag();
    let clock = 0;
    const staged: string[] = [];
    const store = createPacedStore({
      db: app.runtime.deps.db,
      log,
      everyMs: 2000,
      afterStore: [(b) => void staged.push(b.id)],
      now: () => clock,
    });
    const first = batch([quote(s, 110, t0)]);
    await store.add(first);
    expect(await ltpOf(s)).to.equal('110.0000');
    expect(staged).to.deep.equal([first.id]);

    const later = [120, 95, 101].map((ltp, i) => batch([quote(s, ltp, t0 + (i + 1) * 500)]));
    for (const b of later) {
      clock += 500;
      await store.add(b);
    }
    // Within the interval: nothing more written, no stage run.
    expect(await ltpOf(s)).to.equal('110.0000');
    expect(staged).to.have.length(1);

    await store.idle();
    expect(await ltpOf(s)).to.equal('101.0000');
    expect(await minuteBar(s)).to.deep.equal({
      open: '110.0000',
      high: '120.0000',
      low: '95.0000',
      close: '101.0000',
    });
    expect(staged).to.deep.equal([first.id, ...later.map((b) => b.id)]);
  });

  it("writes a batch with an instrument's first price at once, with what waits", async () => {
    const [s, t] = [tag(), tag()];
    let clock = 0;
    const store = createPacedStore({
      db: app.runtime.deps.db,
      log,
      everyMs: 2000,
      afterStore: [],
      now: () => clock,
    });
    await store.add(batch([quote(s, 300, t0)]));
    clock += 100;
    await store.add(batch([quote(s, 301, t0 + 100)]));
    expect(await ltpOf(s)).to.equal('300.0000');
    // A new instrument (a holding just added): its price cannot wait, and takes s's along.
    await store.add(batch([quote(t, 50, t0 + 200)]));
    expect(await ltpOf(t)).to.equal('50.0000');
    expect(await ltpOf(s)).to.equal('301.0000');
  });

  it('writes what waits when its time comes, without being asked', async () => {
    const s = tag();
    const store = createPacedStore({ db: app.runtime.deps.db, log, everyMs: 300, afterStore: [] });
    await store.add(batch([quote(s, 200, t0)]));
    await store.add(batch([quote(s, 205, t0 + 100)]));
    expect(await ltpOf(s)).to.equal('200.0000');
    await waitFor('the merged write', async () => (await ltpOf(s)) === '205.0000');
  });

  it('within a merge, an older quote arriving later never replaces a newer one, and only widens the bar', async () => {
    const s = tag();
    let clock = 0;
    const store = createPacedStore({
      db: app.runtime.deps.db,
      log,
      everyMs: 1000,
      afterStore: [],
      now: () => clock,
    });
    // s's first price (written at once; a stale one builds no bar), then two merged.
    await store.add(batch([{ ...quote(s, 145, t0 - 1000), stale: true }]));
    clock += 100;
    await store.add(batch([quote(s, 150, t0 + 2000)]));
    await store.add(batch([quote(s, 140, t0 + 1000)]));
    await store.idle();
    expect(await ltpOf(s)).to.equal('150.0000');
    expect(await minuteBar(s)).to.deep.equal({
      open: '140.0000',
      high: '150.0000',
      low: '140.0000',
      close: '150.0000',
    });
  });
});
