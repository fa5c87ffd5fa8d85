/**
 * Why did it (not) fire (issue 20): each rule carries the last price it was checked against,
 * when that price was quoted, and how far the price must still move to fire, in % (positive =
 * not yet crossed), all from the instrument's latest stored quote; nothing is written to the
 * rule per batch. A rule that is off, or has no quote yet, carries nulls.
 */
import type { ApiPositionRule } from '@app/common/api/rules';
import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { positionRules } from '../../../server/src/db/schema.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { addHolding, createRule, forgetQuote, listRules, rulesSuite, tickBatch } from './support.ts';

describe('position rules: the last check and the distance to the level', () => {
  const { app, api, users } = rulesSuite();

  /** Publishes one batch and answers the instant its quotes were priced at (ISO). */
  async function quote(prices: Record<string, number>): Promise<string> {
    const batch = tickBatch(prices);
    await app.runtime.bus.publishBatch(batch);
    await new Promise((resolve) => setImmediate(resolve));
    await app.runtime.pipeline.idle();
    return new Date(batch.quotes[0]!.asOf).toISOString();
  }

  async function ruleById(user: SignedInUser, id: string): Promise<ApiPositionRule> {
    const res = await api.get<ApiPositionRule>(`/api/position-rules/${id}`, user.token);
    expect(res.status, res.body.error).to.equal(200);
    return res.body.data!;
  }

  const check = (rule: ApiPositionRule) => ({
    last_price: rule.last_price,
    last_checked_at: rule.last_checked_at,
    distance_percent: rule.distance_percent,
  });

  it('shows the latest price, its time and the distance; positive until crossed, for stops and targets alike', async () => {
    const user = await users.make();
    const armedAt = await quote({ TITAN: 1000 });
    await addHolding(app, user, 'TITAN', 10, 900);
    const stop = (
      await createRule(app, user, { symbol: 'TITAN', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 7 })
    ).body.data!;
    const target = (
      await createRule(app, user, { symbol: 'TITAN', trigger_type: 'TAKE_PROFIT', trigger_value: 10 })
    ).body.data!;
    // The save answers the check it was armed against.
    expect(check(stop)).to.deep.equal({ last_price: 1000, last_checked_at: armedAt, distance_percent: 7 });
    expect(check(target)).to.deep.equal({ last_price: 1000, last_checked_at: armedAt, distance_percent: 10 });

    const at = await quote({ TITAN: 950 });
    // Stop at ₹930: the price must fall (950 − 930) / 950 = 2.11 % more; target ₹1,100: rise 15.79 %.
    expect(check(await ruleById(user, stop.id))).to.deep.equal({
      last_price: 950,
      last_checked_at: at,
      distance_percent: 2.11,
    });
    const listed = await listRules(app, user);
    expect(check(listed.find((r) => r.id === target.id)!)).to.deep.equal({
      last_price: 950,
      last_checked_at: at,
      distance_percent: 15.79,
    });
  });

  it('follows a trailing stop up with its peak; a rule that fired or was disabled is not checked (nulls)', async () => {
    const user = await users.make();
    await quote({ HAVELLS: 1000 });
    await addHolding(app, user, 'HAVELLS', 10, 900);
    const trailing = (
      await createRule(app, user, { symbol: 'HAVELLS', trigger_type: 'TRAILING_STOP_LOSS', trigger_value: 7 })
    ).body.data!;
    const target = (
      await createRule(app, user, { symbol: 'HAVELLS', trigger_type: 'TAKE_PROFIT', trigger_value: 10 })
    ).body.data!;
    const disabled = (
      await createRule(app, user, { symbol: 'HAVELLS', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 20 })
    ).body.data!;
    await api.patch(`/api/position-rules/${disabled.id}`, { is_active: false }, user.token);

    const at = await quote({ HAVELLS: 1200 });
    const rules = await listRules(app, user);
    const byId = (id: string) => rules.find((r) => r.id === id)!;
    // The peak rose to ₹1,200, the level to ₹1,116: 7 % under the price again.
    expect(byId(trailing.id).computed_trigger_price).to.equal(1116);
    expect(check(byId(trailing.id))).to.deep.equal({
      last_price: 1200,
      last_checked_at: at,
      distance_percent: 7,
    });
    expect(byId(target.id).status).to.equal('TRIGGERED');
    const off = { last_price: null, last_checked_at: null, distance_percent: null };
    expect(check(byId(target.id))).to.deep.equal(off);
    expect(check(byId(disabled.id))).to.deep.equal(off);
  });

  it('says nothing was checked while the instrument has no quote, and writes nothing to the rule per batch', async () => {
    const user = await users.make();
    await quote({ PIDILITIND: 3000 });
    await addHolding(app, user, 'PIDILITIND', 2, 2800);
    const rule = (
      await createRule(app, user, { symbol: 'PIDILITIND', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 })
    ).body.data!;
    const stored = async () =>
      (await app.runtime.deps.db.select().from(positionRules).where(eq(positionRules.id, rule.id)))[0]!;
    const before = await stored();
    await quote({ PIDILITIND: 2990 });
    await quote({ PIDILITIND: 2995 });
    expect(await stored()).to.deep.equal(before);
    expect((await ruleById(user, rule.id)).distance_percent).to.equal(4.84);

    await forgetQuote(app, 'PIDILITIND');
    expect(check(await ruleById(user, rule.id))).to.deep.equal({
      last_price: null,
      last_checked_at: null,
      distance_percent: null,
    });
  });
});
