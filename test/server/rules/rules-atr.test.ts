/**
 * ATR stops (issue #33, docs/exit-rules.md "ATR stops and the backtest"): a rule whose level is
 * k × ATR(n) below its reference, from made bars in the store. Each made day trades ₹10 either
 * side of its close, so its true range is ₹20 and ATR(n) is ₹20 until a test makes a wider day.
 * Created through the API; the engine fires it at its stored level; the nightly recomputation
 * raises a trailing one from the day's close and never lowers it; a split divides its level and
 * its ATR. Its own database: no other file's app recomputes or fires these rules.
 */
import { expect } from 'chai';
import { istDateOf } from '../../../common/src/market/calendar.ts';
import { applyCorporateAction } from '../../../server/src/corporate-actions/apply.ts';
import { corporateActions, dailyBars } from '../../../server/src/db/schema.ts';
import { recomputeAtrStops } from '../../../server/src/history/atr-nightly.ts';
import { shiftDate } from '../../../server/src/history/atr-of.ts';
import { storeSteadyBars } from '../../helpers/made-bars.ts';
import { waitFor } from '../../helpers/wait.ts';
import { addHolding, createRule, listExecutions, listRules, publishPrices, rulesSuite } from './support.ts';

describe('ATR stops: k × ATR(n) below the price, from the daily bars', () => {
  const { app, users } = rulesSuite({ ownDatabase: true });
  const today = () => istDateOf(new Date());
  const yesterday = () => shiftDate(today(), -1);

  it('sets a fixed ATR stop 3 × ATR(5) below the price, ignoring the bar of the day still trading, and fires at it', async () => {
    const user = await users.make();
    await storeSteadyBars(app.runtime.deps.db, 'ATRFIX', { last: yesterday(), days: 10, close: 1000 });
    // Today's bar so far swings ₹500: a level must never lean on the day still trading.
    await storeSteadyBars(app.runtime.deps.db, 'ATRFIX', { last: today(), days: 1, close: 1000, range: 250 });
    await publishPrices(app, { ATRFIX: 1000 });
    await addHolding(app, user, 'ATRFIX');
    const res = await createRule(app, user, {
      symbol: 'ATRFIX',
      trigger_type: 'FIXED_STOP_LOSS',
      value_type: 'ATR',
      trigger_value: 3,
      atr_period: 5,
    });
    expect(res.status, res.body.error).to.equal(201);
    expect(res.body.data).to.deep.include({
      computed_trigger_price: 940,
      atr_period: 5,
      atr_value: 20,
      atr_as_of: yesterday(),
      level_reason: '3 × ATR(5) = ₹60.00 below the price of ₹1,000.00 when it was set',
    });
    await publishPrices(app, { ATRFIX: 941 });
    expect(await listExecutions(app, user)).to.deep.equal([]);
    await publishPrices(app, { ATRFIX: 939.5 });
    const fired = await waitFor('the stop to fire', async () => (await listExecutions(app, user))[0]);
    expect(fired).to.deep.include({ symbol: 'ATRFIX', trigger_type: 'FIXED_STOP_LOSS', trigger_price: 940 });
  });

  it('refuses an ATR stop without enough history, saying how many days it needs', async () => {
    const user = await users.make();
    await storeSteadyBars(app.runtime.deps.db, 'ATRSHORT', { last: yesterday(), days: 3, close: 500 });
    await publishPrices(app, { ATRSHORT: 500 });
    await addHolding(app, user, 'ATRSHORT');
    const res = await createRule(app, user, {
      symbol: 'ATRSHORT',
      trigger_type: 'TRAILING_STOP_LOSS',
      value_type: 'ATR',
      trigger_value: 2,
      atr_period: 5,
    });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal('Needs 2 more days of history for an ATR(5) stop on ATRSHORT.');
    const none = await createRule(app, user, {
      symbol: 'ATRSHORT',
      trigger_type: 'FIXED_STOP_LOSS',
      value_type: 'ATR',
      trigger_value: 3,
    });
    expect(none.body.error, 'ATR(22) by default').to.equal(
      'Needs 19 more days of history for an ATR(22) stop on ATRSHORT.',
    );
    const target = await createRule(app, user, {
      symbol: 'ATRSHORT',
      trigger_type: 'TAKE_PROFIT',
      value_type: 'ATR',
      trigger_value: 3,
      atr_period: 5,
    });
    expect(target.status).to.equal(400);
    expect(target.body.error).to.match(/^An ATR level is for stop losses/);
    const wide = await createRule(app, user, {
      symbol: 'ATRSHORT',
      trigger_type: 'FIXED_STOP_LOSS',
      value_type: 'ATR',
      trigger_value: 12,
      atr_period: 5,
    });
    expect(wide.body.error).to.equal("An ATR stop's multiple must be from 0.5 to 10");
    expect(await listRules(app, user)).to.deep.equal([]);
  });

  it('keeps a trailing ATR stop still on ticks, raises it from the close at night, and never lowers it', async () => {
    const user = await users.make();
    await storeSteadyBars(app.runtime.deps.db, 'ATRTRAIL', { last: yesterday(), days: 10, close: 1000 });
    await publishPrices(app, { ATRTRAIL: 1000 });
    await addHolding(app, user, 'ATRTRAIL');
    const res = await createRule(app, user, {
      symbol: 'ATRTRAIL',
      trigger_type: 'TRAILING_STOP_LOSS',
      value_type: 'ATR',
      trigger_value: 3,
      atr_period: 5,
    });
    expect(res.status, res.body.error).to.equal(201);
    expect(res.body.data).to.deep.include({ computed_trigger_price: 940, peak_price: 1000 });
    // A new high during the day moves nothing: the level rises only from closes, at night.
    await publishPrices(app, { ATRTRAIL: 1150 });
    await app.runtime.engine.settled();
    expect((await listRules(app, user))[0]).to.deep.include({
      computed_trigger_price: 940,
      peak_price: 1000,
    });

    // Without the day's bar in the store the night changes nothing and names the instrument.
    const early = await recomputeAtrStops(app.runtime.deps, today());
    expect(early).to.deep.include({ rules: 0, withoutBar: ['NSE:ATRTRAIL'] });

    await storeSteadyBars(app.runtime.deps.db, 'ATRTRAIL', { last: today(), days: 1, close: 1100 });
    const night = await recomputeAtrStops(app.runtime.deps, today());
    expect(night).to.deep.include({ rules: 1, instruments: 1, withoutBar: [] });
    const [raised] = await listRules(app, user);
    // The day gapped up from 1,000 to trade 1,090–1,110: its true range is 110, so
    // ATR(5) = (4 × 20 + 110) / 5 = 38, and the level 1,100 − 3 × 38.
    expect(raised).to.deep.include({
      computed_trigger_price: 986,
      peak_price: 1100,
      atr_value: 38,
      atr_as_of: today(),
      level_reason: '3 × ATR(5) = ₹114.00 below the high of ₹1,100.00',
    });
    expect(
      (await recomputeAtrStops(app.runtime.deps, today())).rules,
      'once a day: a second run changes nothing',
    ).to.equal(0);

    // The next day swings ₹200 and closes lower: ATR(5) = (4 × 38 + 200) / 5 = 70.4, and
    // 1,100 − 3 × 70.4 = 888.80 is below the level, which stays.
    const tomorrow = shiftDate(today(), 1);
    await app.runtime.deps.db.insert(dailyBars).values({
      exchange: 'NSE',
      symbol: 'ATRTRAIL',
      date: tomorrow,
      open: '1100',
      high: '1200',
      low: '1000',
      close: '1050',
      volume: 1000,
      source: 'made.csv',
    });
    expect((await recomputeAtrStops(app.runtime.deps, tomorrow)).rules).to.equal(1);
    expect((await listRules(app, user))[0]).to.deep.include({
      computed_trigger_price: 986,
      peak_price: 1100,
      atr_value: 70.4,
    });
  });

  it('divides an ATR stop’s level and its ATR by a split, not its multiple; the night after the ex-date keeps it', async () => {
    const user = await users.make();
    await storeSteadyBars(app.runtime.deps.db, 'ATRSPLIT', { last: yesterday(), days: 10, close: 1000 });
    await publishPrices(app, { ATRSPLIT: 1000 });
    await addHolding(app, user, 'ATRSPLIT');
    const res = await createRule(app, user, {
      symbol: 'ATRSPLIT',
      trigger_type: 'TRAILING_STOP_LOSS',
      value_type: 'ATR',
      trigger_value: 3,
      atr_period: 5,
    });
    expect(res.status, res.body.error).to.equal(201);
    const exDate = shiftDate(today(), 7);
    const [action] = await app.runtime.deps.db
      .insert(corporateActions)
      .values({
        exchange: 'NSE',
        symbol: 'ATRSPLIT',
        kind: 'SPLIT',
        ratio: '5',
        purpose: 'FV SPLT FRM RS 10 TO RS 2',
        exDate,
        source: 'made',
      })
      .returning();
    expect(
      await applyCorporateAction({ ...app.runtime.deps, deliveries: app.runtime.deliveries }, action!.id),
    ).to.not.equal(null);
    expect((await listRules(app, user))[0]).to.deep.include({
      trigger_value: 3,
      computed_trigger_price: 188,
      peak_price: 200,
      atr_value: 4,
      level_reason: '3 × ATR(5) = ₹12.00 below the high of ₹200.00',
    });

    // The ex-date trades ₹208–212 and closes at ₹210. The night reads the bars before it divided
    // by 5 too (₹198–202, ATR ₹4), so its true range is ₹12, not ₹792 from the ₹1,000 close
    // printed before the split: ATR(5) = (4 × 4 + 12) / 5 = 5.6, and the level 210 − 3 × 5.6.
    await storeSteadyBars(app.runtime.deps.db, 'ATRSPLIT', { last: exDate, days: 1, close: 210, range: 2 });
    expect((await recomputeAtrStops(app.runtime.deps, exDate)).rules).to.equal(1);
    expect((await listRules(app, user))[0]).to.deep.include({
      computed_trigger_price: 193.2,
      peak_price: 210,
      atr_value: 5.6,
      level_reason: '3 × ATR(5) = ₹16.80 below the high of ₹210.00',
    });
  });
});
