import { expect } from 'chai';
import { priceBars, quotes } from '../../../server/src/db/schema.ts';
import { istDayStart } from '../../../server/src/market/ingest.ts';
import { DAILY_CLOSES, loadPriceChart, type PriceChart } from '../../../server/src/market/chart.ts';
import { appSuite } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** An IST wall-clock time as epoch ms. */
const ist = (local: string) => Date.parse(`${local}+05:30`);

describe('market: the price chart (today’s minute bars, or recent daily closes)', () => {
  const { app } = appSuite({ embeddedStreamer: false });
  let user: SignedInUser;
  before(async () => {
    user = await signIn(app);
  });

  const api = () => apiClient(app.url);
  const newSymbol = () => `CHT${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
  /** Stores bars of one NSE instrument: `[epoch ms, close]` pairs. */
  const storeBars = async (symbol: string, interval: '1m' | '1d', bars: [number, number][]) => {
    await app.runtime.deps.db.insert(priceBars).values(
      bars.map(([t, close]) => ({
        exchange: 'NSE' as const,
        symbol,
        interval,
        bucket: new Date(t),
        open: String(close),
        high: String(close),
        low: String(close),
        close: String(close),
      })),
    );
  };
  /** `count` daily closes on the days before `day` (an IST midnight), oldest first: 100, 101, ... */
  const dailyCloses = (day: number, count: number): [number, number][] =>
    Array.from({ length: count }, (_, i) => [day - (count - i) * DAY, 100 + i]);
  const chartAt = (symbol: string, now: number) =>
    loadPriceChart({ db: app.runtime.deps.db, exchange: 'NSE', symbol, now });

  it('serves today’s minute bars, oldest first, once today has any; older minutes and daily closes stay out', async () => {
    const symbol = newSymbol();
    const today = istDayStart(Date.now()).getTime();
    await storeBars(symbol, '1d', dailyCloses(today, 5));
    await storeBars(symbol, '1m', [
      [today - 6 * 3_600_000, 90], // yesterday evening: not today
      [today + 2 * MINUTE, 102.5],
      [today, 101],
      [today + MINUTE, 101.75],
    ]);
    await app.runtime.deps.db.insert(quotes).values({
      exchange: 'NSE',
      symbol,
      ltp: '102.5',
      prevClose: '104',
      asOf: new Date(today + 2 * MINUTE),
    });
    const res = await api().get<PriceChart>(`/api/market/chart/nse/${symbol.toLowerCase()}`, user.token);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal({
      symbol,
      exchange: 'NSE',
      interval: '1m',
      bars: [
        { t: today, close: 101 },
        { t: today + MINUTE, close: 101.75 },
        { t: today + 2 * MINUTE, close: 102.5 },
      ],
      prev_close: 104,
    });
  });

  it(`serves the last ${DAILY_CLOSES} daily closes, oldest first, when only daily bars are stored`, async () => {
    const symbol = newSymbol();
    const today = istDayStart(Date.now()).getTime();
    await storeBars(symbol, '1d', dailyCloses(today, 40));
    const res = await api().get<PriceChart>(`/api/market/chart/NSE/${symbol}`, user.token);
    expect(res.status).to.equal(200);
    const chart = res.body.data!;
    expect(chart).to.include({ symbol, exchange: 'NSE', interval: '1d', prev_close: null });
    expect(chart.bars).to.have.length(DAILY_CLOSES);
    expect(chart.bars[0]).to.deep.equal({ t: today - 30 * DAY, close: 110 });
    expect(chart.bars.at(-1)).to.deep.equal({ t: today - DAY, close: 139 });
    expect(chart.bars.map((b) => b.t)).to.deep.equal([...chart.bars.map((b) => b.t)].sort((a, b) => a - b));
  });

  it('after the close of a trading day, still shows that day’s minute bars (until midnight IST)', async () => {
    const symbol = newSymbol();
    const monday = ist('2026-07-13T00:00:00');
    await storeBars(symbol, '1d', dailyCloses(monday, 3));
    await storeBars(symbol, '1m', [
      [ist('2026-07-13T09:15:00'), 200],
      [ist('2026-07-13T12:00:00'), 204],
      [ist('2026-07-13T15:29:00'), 203],
    ]);
    const evening = await chartAt(symbol, ist('2026-07-13T20:00:00'));
    expect(evening.interval).to.equal('1m');
    expect(evening.bars.map((b) => b.close)).to.deep.equal([200, 204, 203]);
    const nextMorning = await chartAt(symbol, ist('2026-07-14T08:30:00'));
    expect(nextMorning.interval, 'before the next open').to.equal('1d');
  });

  it('on a holiday or a weekend shows daily closes up to the last session', async () => {
    const symbol = newSymbol();
    const friday = ist('2026-01-23T00:00:00');
    await storeBars(symbol, '1d', [...dailyCloses(friday, 4), [friday, 150]]);
    await storeBars(symbol, '1m', [[ist('2026-01-23T15:29:00'), 150]]);
    for (const at of ['2026-01-24T11:00:00', '2026-01-26T11:00:00']) {
      const chart = await chartAt(symbol, ist(at)); // Saturday; Monday 26 Jan, Republic Day
      expect(chart.interval, at).to.equal('1d');
      expect(
        chart.bars.map((b) => b.close),
        at,
      ).to.deep.equal([100, 101, 102, 103, 150]);
    }
  });

  it('answers 401 without a session and 404 for an unknown exchange', async () => {
    expect((await api().get('/api/market/chart/NSE/RELIANCE')).status).to.equal(401);
    expect((await api().get('/api/market/chart/MCX/GOLD', user.token)).status).to.equal(404);
  });
});
