/**
 * Issue 20, rules in rough markets, through the real server and its bus: a gap through the
 * level is told as such, and a quote past every price band is acted on only when the next batch
 * confirms it; an ATR stop (issue #33) as any other.
 */
import { expect } from 'chai';
import { istDateOf } from '../../../common/src/market/calendar.ts';
import { shiftDate } from '../../../server/src/history/atr-of.ts';
import { storeSteadyBars } from '../../helpers/made-bars.ts';
import {
  addHolding,
  createRule,
  listExecutions,
  listRules,
  publishPrices,
  rulesSuite,
  tickBatch,
} from './support.ts';

describe('rules in rough markets: gaps told honestly, bad ticks held for a batch', () => {
  const { app, users } = rulesSuite();

  it('says "gapped through" with the level and the price when the price is more than 1 % past', async () => {
    const user = await users.make();
    await publishPrices(app, { AXISBANK: 1000 });
    await addHolding(app, user, 'AXISBANK');
    await createRule(app, user, { symbol: 'AXISBANK', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 });
    await publishPrices(app, { AXISBANK: 930 }, { AXISBANK: 1000 });
    const [execution] = await listExecutions(app, user);
    expect(execution).to.deep.include({ trigger_price: 950, execution_price: 930 });
    expect(execution!.message).to.equal(
      'AXISBANK gapped through your stop loss: level ₹950.00, price ₹930.00',
    );
  });

  it('holds a quote 30 % off its previous close: no firing, no peak, until a batch confirms it', async () => {
    const user = await users.make();
    await publishPrices(app, { SBIN: 1000, ITC: 1000 }, { SBIN: 1000, ITC: 1000 });
    await addHolding(app, user, 'SBIN');
    await addHolding(app, user, 'ITC');
    await createRule(app, user, { symbol: 'SBIN', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 });
    const trailing = await createRule(app, user, {
      symbol: 'ITC',
      trigger_type: 'TRAILING_STOP_LOSS',
      trigger_value: 10,
    });
    expect(trailing.body.data?.computed_trigger_price).to.equal(900);

    // A bad print: SBIN at 700 and ITC at 1,400 for one batch, then back.
    await publishPrices(app, { SBIN: 700, ITC: 1400 }, { SBIN: 1000, ITC: 1000 });
    await publishPrices(app, { SBIN: 998, ITC: 1001 }, { SBIN: 1000, ITC: 1000 });
    expect(await listExecutions(app, user), 'a single bad print fires nothing').to.deep.equal([]);
    const itc = (await listRules(app, user)).find((r) => r.symbol === 'ITC')!;
    expect(itc.peak_price, 'the trailing peak did not jump to the bad print').to.equal(1001);

    // A real fall past the band: the second batch below 800 confirms it, and the stop fires there.
    await publishPrices(app, { SBIN: 760 }, { SBIN: 1000 });
    expect(await listExecutions(app, user)).to.deep.equal([]);
    await publishPrices(app, { SBIN: 750 }, { SBIN: 1000 });
    const [fired] = await listExecutions(app, user);
    expect(fired).to.deep.include({ symbol: 'SBIN', trigger_price: 950, execution_price: 750 });
  });

  it('an ATR stop alike: a bad print 30 % off is held, a gap through its level is told as a gap', async () => {
    const user = await users.make();
    // Ten days trading ₹10 either side of ₹1,000 up to yesterday: ATR(5) is ₹20.
    const yesterday = shiftDate(istDateOf(new Date()), -1);
    await storeSteadyBars(app.runtime.deps.db, 'GAPATR', { last: yesterday, days: 10, close: 1000 });
    await publishPrices(app, { GAPATR: 1000 }, { GAPATR: 1000 });
    await addHolding(app, user, 'GAPATR');
    const res = await createRule(app, user, {
      symbol: 'GAPATR',
      trigger_type: 'FIXED_STOP_LOSS',
      value_type: 'ATR',
      trigger_value: 3,
      atr_period: 5,
    });
    expect(res.body.data?.computed_trigger_price, res.body.error).to.equal(940);

    await publishPrices(app, { GAPATR: 700 }, { GAPATR: 1000 });
    await publishPrices(app, { GAPATR: 998 }, { GAPATR: 1000 });
    expect(await listExecutions(app, user), 'a single bad print fires nothing').to.deep.equal([]);

    await publishPrices(app, { GAPATR: 925 }, { GAPATR: 1000 });
    const [execution] = await listExecutions(app, user);
    expect(execution).to.deep.include({ trigger_price: 940, execution_price: 925 });
    expect(execution!.message).to.equal('GAPATR gapped through your stop loss: level ₹940.00, price ₹925.00');
  });

  it('never fires a stop on a stale quote, only on the next fresh one', async () => {
    const user = await users.make();
    await publishPrices(app, { WIPRO: 500 });
    await addHolding(app, user, 'WIPRO', 10, 500);
    await createRule(app, user, { symbol: 'WIPRO', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 });
    const stale = tickBatch({ WIPRO: 470 });
    await app.runtime.bus.publishBatch({
      ...stale,
      quotes: stale.quotes.map((q) => ({ ...q, stale: true })),
    });
    await new Promise((resolve) => setImmediate(resolve));
    await app.runtime.pipeline.idle();
    expect(await listExecutions(app, user), 'the stale quote fired nothing').to.deep.equal([]);
    await publishPrices(app, { WIPRO: 474 });
    const [fired] = await listExecutions(app, user);
    expect(fired).to.deep.include({ trigger_price: 475, execution_price: 474 });
  });
});
