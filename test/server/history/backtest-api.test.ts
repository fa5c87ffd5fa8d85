/**
 * POST /api/position-rules/backtest on bars made in the store, one made series per case: a stop
 * that gaps through its level, a trailing stop that whipsaws, an ATR stop without enough history,
 * an instrument with none, an unknown one, bad fields; bars are public, the route needs sign-in.
 */
import { expect } from 'chai';
import type { ApiBacktest } from '../../../common/src/api/backtest.ts';
import { appSuite } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import { storeMadeBars } from '../../helpers/made-bars.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';

const PATH = '/api/position-rules/backtest';

describe('POST /api/position-rules/backtest: what this rule would have done', () => {
  const { app } = appSuite({ embeddedStreamer: false, ownDatabase: true });
  const api = () => apiClient(app.url);
  let alice: SignedInUser;
  let bob: SignedInUser;
  let gapDays: string[];
  let whipsawDays: string[];

  before(async () => {
    alice = await signIn(app);
    bob = await signIn(app);
    const db = app.runtime.deps.db;
    // Flat at ₹100, then bad news overnight: the 6th day opens at ₹80, under a 10 % stop's ₹90.
    gapDays = await storeMadeBars(db, 'INFY', [
      [100, 101, 99, 100],
      [100, 101, 99, 100],
      [100, 101, 99, 100],
      [100, 101, 99, 100],
      [100, 101, 99, 100],
      [80, 84, 78, 82],
      [82, 85, 81, 83],
    ]);
    // A 5 % trailing stop: a high of ₹110 lifts it to ₹104.50; the next day's low of ₹104 sells,
    // and two days later the stock closes at ₹106, back above the level: a whipsaw.
    whipsawDays = await storeMadeBars(db, 'TCS', [
      [100, 101, 99, 100],
      [100, 110, 100, 108],
      [107, 108, 104, 105],
      [105, 106, 102, 103],
      [103, 107, 103, 106],
    ]);
    // Ten days: an ATR(22) stop needs 22 before its first day and one more to test.
    await storeMadeBars(
      db,
      'RELIANCE',
      Array.from({ length: 10 }, () => [100, 102, 98, 100] as [number, number, number, number]),
    );
  });

  it('exits at the open on a day that gapped below the stop, and stays out', async () => {
    const res = await api().post<ApiBacktest>(
      PATH,
      {
        symbol: 'infy',
        exchange: 'nse',
        years: 1,
        trigger_type: 'FIXED_STOP_LOSS',
        value_type: 'PERCENT',
        trigger_value: 10,
      },
      alice.token,
    );
    expect(res.status, res.body.error).to.equal(200);
    const data = res.body.data!;
    expect(data.from).to.equal(gapDays[0]);
    expect(data.to).to.equal(gapDays[6]);
    expect(data.fired).to.deep.equal([{ date: gapDays[5], level: 90, price: 80, gapped: true }]);
    expect(data.whipsaws).to.equal(0);
    expect(data.days_out).to.equal(2);
    expect(data.rule_return_percent).to.equal(-20);
    expect(data.hold_return_percent).to.equal(-17);
    expect(data.rule_max_drawdown_percent).to.equal(20);
    expect(data.hold_max_drawdown_percent).to.equal(18);
    expect(data.series.map((d) => d.level)).to.deep.equal([null, 90, 90, 90, 90, 90, null]);
    expect(data.series.map((d) => d.close)).to.deep.equal([100, 100, 100, 100, 100, 82, 83]);
  });

  it('counts a whipsaw when the stock closes back above the exit level within 10 days', async () => {
    const res = await api().post<ApiBacktest>(
      PATH,
      {
        symbol: 'TCS',
        years: 3,
        trigger_type: 'TRAILING_STOP_LOSS',
        value_type: 'PERCENT',
        trigger_value: '5',
      },
      alice.token,
    );
    expect(res.status, res.body.error).to.equal(200);
    const data = res.body.data!;
    expect(data.fired).to.deep.equal([{ date: whipsawDays[2], level: 104.5, price: 104.5, gapped: false }]);
    expect(data.whipsaws).to.equal(1);
    expect(data.rule_return_percent).to.equal(4.5);
    expect(data.hold_return_percent).to.equal(6);
    expect(data.series.map((d) => d.level)).to.deep.equal([null, 95, 104.5, null, null]);
  });

  it('refuses an ATR stop without enough history, saying how many more days it needs', async () => {
    const res = await api().post(
      PATH,
      {
        symbol: 'RELIANCE',
        years: 1,
        trigger_type: 'TRAILING_STOP_LOSS',
        value_type: 'ATR',
        trigger_value: 3,
        atr_period: 22,
      },
      alice.token,
    );
    expect(res.status).to.equal(422);
    expect(res.body.error).to.equal('Needs 13 more days of history');
    // A percent stop needs no warm-up: the same ten days are enough.
    const percent = await api().post(
      PATH,
      { symbol: 'RELIANCE', years: 1, trigger_type: 'FIXED_STOP_LOSS', trigger_value: 7 },
      alice.token,
    );
    expect(percent.status, percent.body.error).to.equal(200);
  });

  it('says when an instrument has no history yet, and 404 for one that is not listed', async () => {
    const none = await api().post(
      PATH,
      { symbol: 'HDFCBANK', years: 1, trigger_type: 'FIXED_STOP_LOSS', trigger_value: 7 },
      alice.token,
    );
    expect(none.status).to.equal(422);
    expect(none.body.error).to.equal('No price history for HDFCBANK yet');
    const unknown = await api().post(
      PATH,
      { symbol: 'NOSUCHCO', years: 1, trigger_type: 'FIXED_STOP_LOSS', trigger_value: 7 },
      alice.token,
    );
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error).to.equal('NOSUCHCO is not a listed NSE instrument');
  });

  it('refuses bad fields with a sentence', async () => {
    const rule = { symbol: 'INFY', years: 1, trigger_type: 'FIXED_STOP_LOSS', trigger_value: 7 };
    const cases: [Record<string, unknown>, string][] = [
      [{ years: 2 }, 'years must be 1, 3 or 5'],
      [
        { trigger_type: 'TAKE_PROFIT', value_type: 'ATR', trigger_value: 3 },
        'An ATR level is for stop losses only',
      ],
      [{ value_type: 'ATR', trigger_value: 12 }, 'The ATR multiple must be from 0.5 to 10'],
      [
        { value_type: 'ATR', trigger_value: 3, atr_period: 4 },
        'atr_period must be a whole number from 5 to 100',
      ],
      [{ trigger_value: 0 }, 'Please enter a valid trigger value greater than 0'],
      [{ trigger_value: 100 }, 'A stop loss percent must be below 100'],
    ];
    for (const [change, message] of cases) {
      const res = await api().post(PATH, { ...rule, ...change }, alice.token);
      expect(res.status, JSON.stringify(change)).to.equal(400);
      expect(res.body.error, JSON.stringify(change)).to.include(message);
    }
  });

  it('answers every signed-in user the same public figures, and nobody signed out', async () => {
    const body = { symbol: 'TCS', years: 1, trigger_type: 'TRAILING_STOP_LOSS', trigger_value: 5 };
    const mine = await api().post<ApiBacktest>(PATH, body, alice.token);
    const theirs = await api().post<ApiBacktest>(PATH, body, bob.token);
    expect(theirs.status).to.equal(200);
    expect(theirs.body.data).to.deep.equal(mine.body.data);
    expect(JSON.stringify(theirs.body)).not.to.include(alice.email);
    const signedOut = await api().post(PATH, body);
    expect(signedOut.status).to.equal(401);
  });
});
