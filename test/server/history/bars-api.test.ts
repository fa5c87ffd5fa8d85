/**
 * GET /api/market/bars: one instrument's daily bars from the store, adjusted across a made 1:1
 * bonus and a made split from ₹10 to ₹2 (ratio 5) of the corporate actions we keep; an unknown
 * instrument is a 404 with a sentence, no history an empty list; sign-in is required, and a
 * second user reads the same public bars and nothing of the first user's.
 */
import { expect } from 'chai';
import type { ApiDailyBar } from '../../../common/src/api/market-bars.ts';
import { corporateActions, dailyBars } from '../../../server/src/db/schema.ts';
import { appSuite } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';

/** Five trading days around the two ex-dates, as the exchange printed them. */
const PRINTED: [string, number, number, number, number, number][] = [
  ['2025-06-02', 1000, 1020, 990, 1010, 100],
  ['2025-06-03', 1010, 1030, 1000, 1020, 200],
  // 1:1 bonus, ex-date 4 Jun: prices halve, volumes double.
  ['2025-06-04', 510, 520, 500, 515, 400],
  ['2025-06-05', 515, 525, 505, 520, 300],
  // Split from ₹10 to ₹2, ex-date 6 Jun: prices a fifth.
  ['2025-06-06', 104, 106, 103, 105, 1500],
];

describe('GET /api/market/bars: daily history, split- and bonus-adjusted', () => {
  const { app } = appSuite({ embeddedStreamer: false, ownDatabase: true });
  const api = () => apiClient(app.url);
  let alice: SignedInUser;
  let bob: SignedInUser;
  // Listed in the shipped master; the test's own database, so no other file's bars or actions.
  const symbol = 'INFY';

  before(async () => {
    alice = await signIn(app);
    bob = await signIn(app);
    const db = app.runtime.deps.db;
    await db.insert(dailyBars).values(
      PRINTED.map(([date, open, high, low, close, volume]) => ({
        exchange: 'NSE' as const,
        symbol,
        date,
        open: String(open),
        high: String(high),
        low: String(low),
        close: String(close),
        volume,
        source: 'made.csv',
      })),
    );
    // Already applied (levels adjusted on the day): the job leaves them be.
    await db.insert(corporateActions).values([
      {
        exchange: 'NSE',
        symbol,
        kind: 'BONUS',
        ratio: '2',
        purpose: 'BONUS 1:1',
        exDate: '2025-06-04',
        source: 'made',
        appliedAt: new Date(),
      },
      {
        exchange: 'NSE',
        symbol,
        kind: 'SPLIT',
        ratio: '5',
        purpose: 'FV SPLT FRM RS 10 TO RS 2',
        exDate: '2025-06-06',
        source: 'made',
        appliedAt: new Date(),
      },
      // A dividend-like notice without a ratio changes nothing.
      {
        exchange: 'NSE',
        symbol,
        kind: 'RIGHTS',
        ratio: null,
        purpose: 'RIGHTS 1:5',
        exDate: '2025-06-05',
        source: 'made',
        appliedAt: null,
      },
    ]);
  });

  it('divides prices before each ex-date by its ratio and multiplies volumes, compounding', async () => {
    const res = await api().get<ApiDailyBar[]>(
      `/api/market/bars?symbol=infy&exchange=nse&from=2025-06-01&to=2025-06-30`,
      alice.token,
    );
    expect(res.status, res.body.error).to.equal(200);
    expect(res.body.data).to.deep.equal([
      { date: '2025-06-02', open: 100, high: 102, low: 99, close: 101, volume: 1000 },
      { date: '2025-06-03', open: 101, high: 103, low: 100, close: 102, volume: 2000 },
      { date: '2025-06-04', open: 102, high: 104, low: 100, close: 103, volume: 2000 },
      { date: '2025-06-05', open: 103, high: 105, low: 101, close: 104, volume: 1500 },
      { date: '2025-06-06', open: 104, high: 106, low: 103, close: 105, volume: 1500 },
    ]);
  });

  it('keeps to the range asked, both days included, and is the same for every signed-in user', async () => {
    const path = `/api/market/bars?symbol=INFY&from=2025-06-03&to=2025-06-05`;
    const mine = await api().get<ApiDailyBar[]>(path, alice.token);
    expect(mine.body.data!.map((b) => b.date)).to.deep.equal(['2025-06-03', '2025-06-04', '2025-06-05']);
    const theirs = await api().get<ApiDailyBar[]>(path, bob.token);
    expect(theirs.status).to.equal(200);
    expect(theirs.body.data).to.deep.equal(mine.body.data);
    expect(JSON.stringify(theirs.body)).not.to.include(alice.email);
  });

  it('answers an empty list with no history, and 404 with a sentence for an unknown instrument', async () => {
    const none = await api().get<ApiDailyBar[]>(
      `/api/market/bars?symbol=TCS&from=2025-06-01&to=2025-06-30`,
      alice.token,
    );
    expect(none.status).to.equal(200);
    expect(none.body.data).to.deep.equal([]);
    const unknown = await api().get(`/api/market/bars?symbol=NOSUCHCO&exchange=NSE`, alice.token);
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error).to.equal('NOSUCHCO is not a listed NSE instrument');
  });

  it('refuses a range over ten years, a range backwards and a date that is not one', async () => {
    const long = await api().get(`/api/market/bars?symbol=INFY&from=2010-01-01&to=2025-06-30`, alice.token);
    expect(long.status).to.equal(400);
    expect(long.body.error).to.equal('The range can span at most 10 years');
    const backwards = await api().get(
      `/api/market/bars?symbol=INFY&from=2025-06-30&to=2025-06-01`,
      alice.token,
    );
    expect(backwards.status).to.equal(400);
    expect(backwards.body.error).to.equal('from must not be after to');
    const bad = await api().get(`/api/market/bars?symbol=INFY&from=2025-02-30`, alice.token);
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.match(/not a calendar date/);
  });

  it('needs sign-in', async () => {
    const res = await api().get(`/api/market/bars?symbol=INFY`);
    expect(res.status).to.equal(401);
  });
});
