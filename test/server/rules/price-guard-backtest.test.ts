/**
 * POST /api/price-guard/backtest: Price Guard's rule backtested over the caller's holdings, on
 * bars made for it in the store: a jumpy stock the 7 % trailing stop is shaken out of (and an
 * ATR stop is not), a calm one that falls for good, one without history, one too short; another
 * user's holdings never appear, and another user reads only theirs.
 */
import { expect } from 'chai';
import type { PriceGuardBacktest } from '../../../common/src/api/price-guard.ts';
import { brokerAccounts, dailyBars, holdings } from '../../../server/src/db/schema.ts';
import { appSuite } from '../../helpers/app.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import { barsOf, FALLS, JUMPY, SHORT } from './guard-bars.ts';

describe('POST /api/price-guard/backtest: Price Guard over all holdings', function () {
  this.timeout(60_000);
  const { app, api } = appSuite({ embeddedStreamer: false, ownDatabase: true });
  let alice: SignedInUser;
  let bob: SignedInUser;

  async function hold(user: SignedInUser, brokerName: string, symbols: string[]) {
    const db = app.runtime.deps.db;
    const [account] = await db
      .insert(brokerAccounts)
      .values({ userId: user.id, brokerName, brokerType: 'CSV_IMPORT', accountLabel: '' })
      .returning();
    await db.insert(holdings).values(
      symbols.map((symbol) => ({
        userId: user.id,
        brokerAccountId: account!.id,
        symbol,
        exchange: 'NSE' as const,
        quantity: '10',
        averagePrice: '100.0000',
      })),
    );
  }

  before(async () => {
    alice = await signIn(app);
    bob = await signIn(app);
    const db = app.runtime.deps.db;
    await db
      .insert(dailyBars)
      .values([
        ...barsOf('TCS', JUMPY),
        ...barsOf('HDFCBANK', FALLS),
        ...barsOf('ITC', SHORT),
        ...barsOf('INFY', JUMPY),
      ]);
    // TCS in two accounts; WIPRO has no history at all.
    await hold(alice, 'Zerodha', ['TCS', 'HDFCBANK', 'WIPRO', 'ITC']);
    await hold(alice, 'ICICI Direct', ['TCS']);
    await hold(bob, 'Groww', ['INFY', 'TCS']);
  });

  const preview = (user: SignedInUser, body: object = {}) =>
    api.post<PriceGuardBacktest>('/api/price-guard/backtest', body, user.token);

  it('counts firings and whipsaws on each of the caller’s holdings, and suggests the ATR stop where it whipsaws less', async () => {
    const res = await preview(alice, { years: 3 });
    expect(res.status, res.body.error).to.equal(200);
    const data = res.body.data!;
    expect(data.years).to.equal(3);
    expect(data.totals).to.deep.equal({ holdings: 3, fired: 3, whipsaws: 2 });
    const rows = data.holdings.map((h) => [
      h.symbol,
      h.account,
      h.fired,
      h.whipsaws,
      h.atr_fired,
      h.atr_whipsaws,
    ]);
    expect(rows).to.have.deep.members([
      ['HDFCBANK', 'Zerodha', 1, 0, 1, 0],
      ['TCS', 'Zerodha', 1, 1, 0, 0],
      ['TCS', 'ICICI Direct', 1, 1, 0, 0],
    ]);
    const falls = data.holdings.find((h) => h.symbol === 'HDFCBANK')!;
    // Sold at the ₹900 open, held ₹1,000 → ₹890.
    expect(falls.rule_return_percent).to.equal(-10);
    expect(falls.hold_return_percent).to.equal(-11);
    expect(data.atr_rule).to.deep.equal({
      trigger_type: 'TRAILING_STOP_LOSS',
      value_type: 'ATR',
      trigger_value: 3,
      atr_period: 22,
    });
    expect(data.suggestion).to.deep.equal({ holdings: 2, whipsaws: 2, atr_whipsaws: 0 });
    expect(data.left_out.map((h) => [h.symbol, h.reason, h.days_needed, h.message])).to.have.deep.members([
      ['WIPRO', 'no_history', null, 'No daily history yet'],
      ['ITC', 'too_short', 13, 'Needs 13 more days of history'],
    ]);
  });

  it('never includes another user’s holdings', async () => {
    const res = await preview(bob);
    expect(res.status, res.body.error).to.equal(200);
    const symbols = [...res.body.data!.holdings, ...res.body.data!.left_out].map((h) => h.symbol);
    expect(symbols.sort()).to.deep.equal(['INFY', 'TCS']);
    expect(res.body.data!.holdings.every((h) => h.account === 'Groww')).to.equal(true);
  });

  it('takes a fixed stop in rupees, and compares it with a fixed ATR stop', async () => {
    const res = await preview(alice, {
      trigger_type: 'FIXED_STOP_LOSS',
      value_type: 'ABSOLUTE',
      trigger_value: 50,
    });
    expect(res.status, res.body.error).to.equal(200);
    expect(res.body.data!.atr_rule.trigger_type).to.equal('FIXED_STOP_LOSS');
    // ₹50 under ₹100 is never reached; under ₹1,000 the gap to ₹900 sells.
    expect(res.body.data!.totals).to.deep.equal({ holdings: 3, fired: 1, whipsaws: 0 });
    expect(res.body.data!.suggestion).to.equal(null);
  });

  it('refuses a price level and other years with a sentence', async () => {
    const price = await preview(alice, { value_type: 'PRICE', trigger_value: 900 });
    expect(price.status).to.equal(400);
    expect(price.body.error).to.match(/value_type must be PERCENT or ABSOLUTE/);
    const years = await preview(alice, { years: 2 });
    expect(years.status).to.equal(400);
    expect(years.body.error).to.match(/years must be 1, 3 or 5/);
  });

  it('needs sign-in, and limits each user to 20 previews a minute', async () => {
    expect((await api.post('/api/price-guard/backtest', {})).status).to.equal(401);
    const carol = await signIn(app);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await preview(carol)).status);
    expect(statuses.slice(0, 20).every((s) => s === 200)).to.equal(true);
    expect(statuses[20]).to.equal(429);
    expect((await preview(bob)).status).to.equal(200);
  });
});
