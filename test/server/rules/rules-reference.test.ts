import type { ApiPositionRule } from '@app/common/api/rules';
import { expect } from 'chai';
import type { SignedInUser } from '../../helpers/users.ts';
import { addHolding, createRule, listExecutions, listRules, publishPrices, rulesSuite } from './support.ts';

/** The built-in '5% Fixed Stop Loss' template, as the Apply Rule Templates dialog sends it. */
const template = (symbol: string) => ({
  symbol,
  trigger_type: 'FIXED_STOP_LOSS',
  trigger_value: 5,
  value_type: 'PERCENT',
  reference: 'buy_price',
});

describe('position rules: the reference kind (buy price or current price) is kept on edit and enable', () => {
  const { app, api, users } = rulesSuite();

  /** A holding bought at 1000 now quoted at 1200, with the template rule on it (trigger 950). */
  async function templateRule(user: SignedInUser, symbol: string): Promise<ApiPositionRule> {
    await publishPrices(app, { [symbol]: 1200 });
    await addHolding(app, user, symbol, 10, 1000);
    const res = await createRule(app, user, template(symbol));
    expect(res.status, res.body.error).to.equal(201);
    expect(res.body.data).to.deep.include({
      reference: 'buy_price',
      reference_price: 1000,
      computed_trigger_price: 950,
    });
    return res.body.data!;
  }

  it('an edited template rule stays measured from the buy price and fires there', async () => {
    const user = await users.make();
    const rule = await templateRule(user, 'ASIANPAINT');
    await publishPrices(app, { ASIANPAINT: 1300 });
    const edited = await api.put<ApiPositionRule>(
      `/api/position-rules/${rule.id}`,
      { trigger_value: 10 },
      user.token,
    );
    expect(edited.status, edited.body.error).to.equal(200);
    expect(edited.body.data).to.deep.include({
      reference: 'buy_price',
      reference_price: 1000,
      computed_trigger_price: 900,
      current_price: 1300,
    });
    const [listed] = await listRules(app, user);
    expect(listed).to.deep.include({ reference: 'buy_price', computed_trigger_price: 900 });

    // Measured from 1,300 the stop would sit at 1,170; from the buy price it is 900.
    await publishPrices(app, { ASIANPAINT: 1000 });
    expect(await listExecutions(app, user)).to.deep.equal([]);
    await publishPrices(app, { ASIANPAINT: 899 });
    const executions = await listExecutions(app, user);
    expect(executions.map((e) => [e.trigger_price, e.execution_price])).to.deep.equal([[900, 899]]);
  });

  it('a disabled template rule enabled again is re-armed from the buy price and fires there', async () => {
    const user = await users.make();
    const rule = await templateRule(user, 'NESTLEIND');
    const off = await api.patch<ApiPositionRule>(
      `/api/position-rules/${rule.id}`,
      { is_active: false },
      user.token,
    );
    expect(off.body.data).to.deep.include({ status: 'INACTIVE', reference: 'buy_price' });
    await publishPrices(app, { NESTLEIND: 1400 });
    const on = await api.patch<ApiPositionRule>(
      `/api/position-rules/${rule.id}`,
      { is_active: true },
      user.token,
    );
    expect(on.status, on.body.error).to.equal(200);
    expect(on.body.data).to.deep.include({
      status: 'ACTIVE',
      reference: 'buy_price',
      reference_price: 1000,
      computed_trigger_price: 950,
    });

    // Measured from 1,400 the stop would sit at 1,330; from the buy price it is 950.
    await publishPrices(app, { NESTLEIND: 1200 });
    expect(await listExecutions(app, user)).to.deep.equal([]);
    await publishPrices(app, { NESTLEIND: 950 });
    expect((await listExecutions(app, user)).map((e) => e.trigger_price)).to.deep.equal([950]);
  });

  it('keeps current-price rules on the current price, and an edit may change the kind', async () => {
    const user = await users.make();
    await publishPrices(app, { BRITANNIA: 1200 });
    await addHolding(app, user, 'BRITANNIA', 10, 1000);
    const created = await createRule(app, user, {
      symbol: 'BRITANNIA',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
    });
    expect(created.body.data).to.deep.include({ reference: 'current', reference_price: 1200 });
    const id = created.body.data!.id;
    await publishPrices(app, { BRITANNIA: 1300 });
    const edited = await api.put<ApiPositionRule>(
      `/api/position-rules/${id}`,
      { trigger_value: 10 },
      user.token,
    );
    expect(edited.body.data).to.deep.include({
      reference: 'current',
      reference_price: 1300,
      computed_trigger_price: 1170,
    });
    const toBuy = await api.put<ApiPositionRule>(
      `/api/position-rules/${id}`,
      { reference: 'buy_price' },
      user.token,
    );
    expect(toBuy.body.data).to.deep.include({
      reference: 'buy_price',
      reference_price: 1000,
      computed_trigger_price: 900,
    });
    await api.patch(`/api/position-rules/${id}`, { is_active: false }, user.token);
    const on = await api.patch<ApiPositionRule>(`/api/position-rules/${id}`, { is_active: true }, user.token);
    expect(on.body.data).to.deep.include({ reference: 'buy_price', computed_trigger_price: 900 });
  });
});
