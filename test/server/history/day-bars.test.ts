/**
 * The day's own bar from the quotes (server/src/history/day-bars.ts): after the close of a
 * trading day (16:00 IST) each watched instrument's `1d` quote bar is added to the daily history
 * with source `quotes`; not before the close, not on a day the market was shut, not twice (a
 * second instance, or later ticks, change nothing), never over a bhavcopy's bar, and a bhavcopy
 * loaded later replaces it.
 */
import { expect } from 'chai';
import { and, eq, inArray } from 'drizzle-orm';
import { pino } from 'pino';
import { dailyBars, priceBars } from '../../../server/src/db/schema.ts';
import { createDayBarsJob } from '../../../server/src/history/day-bars.ts';
import { storeBhavcopy } from '../../../server/src/history/store.ts';
import { appSuite } from '../../helpers/app.ts';
import { signIn } from '../../helpers/users.ts';
import { addHolding } from '../rules/support.ts';

/** A Wednesday the NSE traded. */
const DAY = '2026-11-18';
const at = (time: string) => new Date(`${DAY}T${time}:00+05:30`);

describe("daily history: the day's own bar from the quotes, after the close", () => {
  const { app } = appSuite({ embeddedStreamer: false, ownDatabase: true });
  let clock = at('14:00');
  const job = () =>
    createDayBarsJob({ db: app.runtime.deps.db, log: pino({ level: 'silent' }), now: () => clock });
  const db = () => app.runtime.deps.db;
  const barsOn = async (date: string) =>
    Object.fromEntries(
      (
        await db()
          .select()
          .from(dailyBars)
          .where(and(eq(dailyBars.date, date), inArray(dailyBars.symbol, ['INFY', 'TCS', 'WIPRO'])))
      ).map((b) => [b.symbol, { close: b.close, source: b.source, volume: b.volume }]),
    );
  const quoteBar = (symbol: string, date: string, close: number) => ({
    exchange: 'NSE' as const,
    symbol,
    interval: '1d' as const,
    bucket: new Date(`${date}T00:00:00+05:30`),
    open: String(close - 10),
    high: String(close + 5),
    low: String(close - 20),
    close: String(close),
  });

  before(async () => {
    const alice = await signIn(app);
    await addHolding(app, alice, 'INFY');
    await addHolding(app, alice, 'TCS');
    // WIPRO has a quote bar but nobody watches it any more.
    await db()
      .insert(priceBars)
      .values([quoteBar('INFY', DAY, 1500), quoteBar('TCS', DAY, 4000), quoteBar('WIPRO', DAY, 250)]);
    // TCS's day came from the exchange's file first.
    await db().insert(dailyBars).values({
      exchange: 'NSE',
      symbol: 'TCS',
      date: DAY,
      open: '3990',
      high: '4010',
      low: '3980',
      close: '4002.5',
      volume: 12345,
      source: 'BhavCopy_NSE_CM_0_0_0_20261118_F_0000.csv',
    });
  });

  it('adds nothing before the close', async () => {
    expect(await job().runOnce()).to.deep.equal([]);
    clock = at('15:45');
    expect(await job().runOnce()).to.deep.equal([]);
    expect(Object.keys(await barsOn(DAY))).to.deep.equal(['TCS']);
  });

  it("adds each watched instrument's bar after the close, never over the bhavcopy's", async () => {
    clock = at('16:05');
    expect(await job().runOnce()).to.deep.equal([{ day: DAY, added: 1 }]);
    expect(await barsOn(DAY)).to.deep.equal({
      INFY: { close: '1500.0000', source: 'quotes', volume: 0 },
      TCS: { close: '4002.5000', source: 'BhavCopy_NSE_CM_0_0_0_20261118_F_0000.csv', volume: 12345 },
    });
  });

  it('adds it once: later ticks and another instance change nothing', async () => {
    await db()
      .update(priceBars)
      .set({ close: '1490' })
      .where(and(eq(priceBars.symbol, 'INFY'), eq(priceBars.interval, '1d')));
    clock = at('17:00');
    expect(await job().runOnce()).to.deep.equal([{ day: DAY, added: 0 }]);
    expect((await barsOn(DAY)).INFY).to.deep.equal({ close: '1500.0000', source: 'quotes', volume: 0 });
  });

  it('adds nothing on a day the market was shut', async () => {
    await db()
      .insert(priceBars)
      .values(quoteBar('INFY', '2026-11-21', 1600));
    clock = new Date('2026-11-21T17:00:00+05:30'); // a Saturday
    expect(await job().runOnce()).to.deep.equal([]);
    expect(await barsOn('2026-11-21')).to.deep.equal({});
  });

  it("gives way to the exchange's bhavcopy loaded later", async () => {
    const file = 'BhavCopy_NSE_CM_0_0_0_20261118_F_0000.csv';
    const row = {
      key: 'INFY',
      isin: null,
      open: '1495',
      high: '1510',
      low: '1485',
      close: '1502.35',
      volume: '998877',
    };
    await storeBhavcopy(db(), { file, title: 'NSE UDiFF bhavcopy', exchange: 'NSE', date: DAY, rows: [row] });
    expect((await barsOn(DAY)).INFY).to.deep.equal({ close: '1502.3500', source: file, volume: 998877 });
  });
});
