/**
 * Issue #28 item 7, editing and enabling a fired rule, through the real server and its bus:
 * ticking "Re-arm after the price recovers" on a Triggered rule makes it wait at its re-arm
 * price (still Triggered) and re-arm there; enabling a fixed stop keeps its level; a level the
 * price has crossed since is refused with what to do, and moved only when asked (`level:
 * from_price`); a trailing stop still starts a new peak.
 */
import type { ApiPositionRule } from '@app/common/api/rules';
import { expect } from 'chai';
import type { SignedInUser } from '../../helpers/users.ts';
import { addHolding, createRule, listExecutions, listRules, publishPrices, rulesSuite } from './support.ts';

describe('editing and enabling a fired rule', () => {
  const { app, api, users } = rulesSuite();

  async function prices(p: Record<string, number>): Promise<void> {
    await publishPrices(app, p);
    await app.runtime.engine.settled();
  }

  async function ruleOf(user: SignedInUser, symbol: string) {
    return (await listRules(app, user)).find((r) => r.symbol === symbol)!;
  }

  const enable = (user: SignedInUser, id: string, body: Record<string, unknown> = {}) =>
    api.patch<ApiPositionRule>(`/api/position-rules/${id}`, { is_active: true, ...body }, user.token);

  it('ticking re-arm on a Triggered rule makes it wait at its re-arm price, and it re-arms there', async () => {
    const user = await users.make();
    await prices({ ENWAIT: 1000 });
    await addHolding(app, user, 'ENWAIT');
    const res = await createRule(app, user, {
      symbol: 'ENWAIT',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
    });
    await prices({ ENWAIT: 949 });
    expect(await ruleOf(user, 'ENWAIT')).to.deep.include({ status: 'TRIGGERED', rearm_at: null });
    const edited = await api.put<ApiPositionRule>(
      `/api/position-rules/${res.body.data!.id}`,
      { rearm: 'after_recovery' },
      user.token,
    );
    expect(edited.status, edited.body.error).to.equal(200);
    expect(edited.body.data).to.deep.include({
      status: 'TRIGGERED',
      is_active: false,
      rearm: 'after_recovery',
      rearm_at: 978.5,
      computed_trigger_price: 950,
    });
    await prices({ ENWAIT: 979 });
    expect(await ruleOf(user, 'ENWAIT')).to.deep.include({
      status: 'ACTIVE',
      rearm_at: null,
      computed_trigger_price: 950,
    });
    await prices({ ENWAIT: 950 });
    expect((await listExecutions(app, user)).map((e) => e.execution_type)).to.deep.equal([
      'ALERT',
      'REARM',
      'ALERT',
    ]);
  });

  it('enabling a fired fixed stop whose level is above the price is refused with what to do, and moves it only when asked', async () => {
    const user = await users.make();
    await prices({ ENSTOP: 301.59 });
    await addHolding(app, user, 'ENSTOP');
    const res = await createRule(app, user, {
      symbol: 'ENSTOP',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
    });
    expect(res.body.data!.computed_trigger_price).to.equal(286.51);
    await prices({ ENSTOP: 286 });
    const id = res.body.data!.id;
    const refused = await enable(user, id);
    expect(refused.status).to.equal(400);
    expect(refused.body.error).to.equal(
      'ENSTOP: The stop loss level ₹286.51 is at or above the current price ₹286.00; it would fire at once. Enable it measured from the current price, or edit its level.',
    );
    expect(await ruleOf(user, 'ENSTOP'), 'nothing moved').to.deep.include({
      status: 'TRIGGERED',
      computed_trigger_price: 286.51,
    });
    const moved = await enable(user, id, { level: 'from_price' });
    expect(moved.status, moved.body.error).to.equal(200);
    expect(moved.body.data).to.deep.include({
      status: 'ACTIVE',
      reference_price: 286,
      computed_trigger_price: 271.7,
    });
    const bad = await enable(user, id, { level: 'somewhere' });
    expect(bad.body.error).to.equal('level must be keep or from_price');
  });

  it('a fixed stop enabled again keeps its level however the price moved; a trailing stop starts a new peak', async () => {
    const user = await users.make();
    await prices({ ENKEEP: 1000 });
    await addHolding(app, user, 'ENKEEP');
    const fixed = await createRule(app, user, {
      symbol: 'ENKEEP',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
    });
    const trailing = await createRule(app, user, {
      symbol: 'ENKEEP',
      trigger_type: 'TRAILING_STOP_LOSS',
      trigger_value: 10,
    });
    const off = await api.post(
      '/api/position-rules/bulk-action',
      { ids: [fixed.body.data!.id, trailing.body.data!.id], action: 'disable' },
      user.token,
    );
    expect(off.status, off.body.error).to.equal(200);
    await prices({ ENKEEP: 1100 });
    expect((await enable(user, fixed.body.data!.id)).body.data).to.deep.include({
      status: 'ACTIVE',
      reference_price: 1000,
      computed_trigger_price: 950,
    });
    expect((await enable(user, trailing.body.data!.id)).body.data).to.deep.include({
      status: 'ACTIVE',
      peak_price: 1100,
      computed_trigger_price: 990,
    });
  });

  it('a fired stop at a price can only be edited: enabling it says so', async () => {
    const user = await users.make();
    await prices({ ENPRICE: 1469.75 });
    await addHolding(app, user, 'ENPRICE');
    const res = await createRule(app, user, {
      symbol: 'ENPRICE',
      trigger_type: 'FIXED_STOP_LOSS',
      value_type: 'PRICE',
      trigger_value: 1400,
    });
    await prices({ ENPRICE: 1399 });
    const refused = await enable(user, res.body.data!.id);
    expect(refused.body.error).to.equal(
      'ENPRICE: The stop loss level ₹1,400.00 is at or above the current price ₹1,399.00; it would fire at once. Edit its price to enable it.',
    );
    await prices({ ENPRICE: 1450 });
    expect((await enable(user, res.body.data!.id)).body.data).to.deep.include({
      status: 'ACTIVE',
      computed_trigger_price: 1400,
    });
  });
});
