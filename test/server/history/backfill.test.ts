/**
 * History from Yahoo for watched instruments the store lacks (server/src/history/backfill.ts),
 * through the fake Yahoo serving yahoo-finance2's recorded NVDA chart answer (a 4:1 split on
 * 20 Jul 2021) as each symbol's: asked once, five years of daily bars with the splits; stored as
 * printed (the days before the split multiplied back by 4); a 429 pauses the requests for its
 * Retry-After and is asked again after the back-off, never before; an answered instrument never
 * asked again; one with bars already (a bhavcopy) never asked.
 */
import { expect } from 'chai';
import { and, eq } from 'drizzle-orm';
import { pino } from 'pino';
import { createYahooChart } from '../../../streamer/src/providers/yahoo-chart.ts';
import { dailyBars } from '../../../server/src/db/schema.ts';
import {
  createBackfillJob,
  quotesFromYahoo,
  type BackfillJob,
} from '../../../server/src/history/backfill.ts';
import { appSuite } from '../../helpers/app.ts';
import { startFakeYahoo, type FakeYahoo } from '../../helpers/fake-yahoo.ts';
import { readShared } from '../../helpers/shared-data.ts';
import { signIn } from '../../helpers/users.ts';
import { addHolding } from '../rules/support.ts';

const SAMPLE = 'data/samples/yahoo/historical-via-chart-NVDA-split-2021-02-01-to-2022-01-31.csv.json';

interface Recorded {
  response: { bodyJson: { chart: { result: [{ timestamp: number[] }] } } };
}

describe('daily history from Yahoo for instruments the store lacks', () => {
  const { app } = appSuite({ embeddedStreamer: false, ownDatabase: true });
  let yahoo: FakeYahoo;
  let clock = new Date('2026-11-18T06:30:00Z');
  const recorded = JSON.parse(readShared(SAMPLE)) as Recorded;
  const answer = JSON.stringify(recorded.response.bodyJson);
  const days = recorded.response.bodyJson.chart.result[0].timestamp.length;

  let job: BackfillJob;
  const newJob = () =>
    createBackfillJob({
      db: app.runtime.deps.db,
      log: pino({ level: 'silent' }),
      chart: createYahooChart({ baseUrl: yahoo.baseUrl }),
      now: () => clock,
      gapMs: 0,
    });
  const barsOf = (symbol: string) =>
    app.runtime.deps.db
      .select()
      .from(dailyBars)
      .where(and(eq(dailyBars.exchange, 'NSE'), eq(dailyBars.symbol, symbol)))
      .orderBy(dailyBars.date);
  const asked = () => yahoo.chartRequests().map((r) => `${r.symbol} ${r.status}`);

  before(async () => {
    yahoo = await startFakeYahoo();
    job = newJob();
    for (const symbol of ['INFY.NS', 'TCS.NS', 'WIPRO.NS']) yahoo.setChart(symbol, answer);
    const alice = await signIn(app);
    for (const symbol of ['HDFCBANK', 'INFY', 'TCS', 'WIPRO']) await addHolding(app, alice, symbol);
    // HDFCBANK has a bar from a bhavcopy: the store does not lack it.
    await app.runtime.deps.db.insert(dailyBars).values({
      exchange: 'NSE',
      symbol: 'HDFCBANK',
      date: '2026-11-17',
      open: '1600',
      high: '1610',
      low: '1590',
      close: '1605',
      volume: 1000,
      source: 'BhavCopy_NSE_CM_0_0_0_20261117_F_0000.csv',
    });
  });
  after(() => yahoo.close());

  it('runs with Yahoo quotes only: polled, or beside a broker stream', () => {
    expect(quotesFromYahoo({ QUOTE_PROVIDER: 'yahoo', QUOTE_FALLBACK: 'simulated' })).to.equal(true);
    expect(quotesFromYahoo({ QUOTE_PROVIDER: 'kite', QUOTE_FALLBACK: 'yahoo' })).to.equal(true);
    expect(quotesFromYahoo({ QUOTE_PROVIDER: 'kite', QUOTE_FALLBACK: 'simulated' })).to.equal(false);
    expect(quotesFromYahoo({ QUOTE_PROVIDER: 'simulated', QUOTE_FALLBACK: 'yahoo' })).to.equal(false);
  });

  it('asks for five years of daily bars with the splits, stores them as printed, and a 429 ends the run', async () => {
    yahoo.scriptChart({ kind: 'ok' }, { kind: 'status', status: 429, retryAfter: '120' });
    const outcomes = await job.runOnce();

    // HDFCBANK (has bars) is not asked; the 429 on TCS leaves WIPRO for a later run.
    expect(asked()).to.deep.equal(['INFY.NS 200', 'TCS.NS 429']);
    expect(yahoo.chartRequests()[0]!.query).to.include({ range: '5y', interval: '1d', events: 'div,splits' });
    expect(outcomes.map((o) => [o.symbol, o.bars ?? o.error])).to.deep.equal([
      ['INFY', days],
      ['TCS', 'query2.finance.yahoo.com answered 429'],
    ]);

    const bars = await barsOf('INFY');
    expect(bars).to.have.length(days);
    expect(bars.every((b) => b.source === 'yahoo')).to.equal(true);
    const on = (date: string) => bars.find((b) => b.date === date)!;
    // The day before the 4:1 split: Yahoo's 17.9153 / 19.0420 / 17.8655 / 18.7798 and 749,060,000
    // shares, as printed four times the price on a quarter of the shares.
    expect(on('2021-07-19')).to.include({
      open: '71.6600',
      high: '76.1700',
      low: '71.4600',
      close: '75.1200',
      volume: 187_265_000,
    });
    // The split's day and after: as Yahoo gives them.
    expect(on('2021-07-20')).to.include({ open: '18.7300', close: '18.6100', volume: 434_687_000 });
    expect(await barsOf('HDFCBANK')).to.have.length(1);
  });

  it('asks again after a 429 once the back-off is over, not before', async () => {
    // Yahoo asked for two minutes' rest: nothing is asked before.
    clock = new Date(clock.getTime() + 60_000);
    expect(await job.runOnce()).to.deep.equal([]);
    expect(asked()).to.have.length(2);

    // Then the others are, but not TCS: its back-off (five minutes) runs.
    clock = new Date(clock.getTime() + 2 * 60_000);
    expect((await job.runOnce()).map((o) => [o.symbol, o.bars])).to.deep.equal([['WIPRO', days]]);
    expect(asked().slice(2)).to.deep.equal(['WIPRO.NS 200']);

    clock = new Date(clock.getTime() + 3 * 60_000);
    expect((await job.runOnce()).map((o) => [o.symbol, o.bars])).to.deep.equal([['TCS', days]]);
    expect(asked().slice(3)).to.deep.equal(['TCS.NS 200']);
    expect(await barsOf('TCS')).to.have.length(days);
  });

  it('never asks again for an instrument Yahoo answered, even when its bars are gone', async () => {
    await app.runtime.deps.db
      .delete(dailyBars)
      .where(and(eq(dailyBars.exchange, 'NSE'), eq(dailyBars.symbol, 'INFY')));
    clock = new Date(clock.getTime() + 3 * 24 * 3_600_000);
    expect(await newJob().runOnce()).to.deep.equal([]);
    expect(asked()).to.have.length(4);
  });
});
