/**
 * Issue #28 item 6, a stop at a price: `value_type: PRICE` sets the level itself ("alert me at
 * ₹1,400", as on Kite), through the real server and its engine; a trailing stop cannot be a
 * price; every range in a refusal is money; PERCENT and ABSOLUTE still work as before.
 */
import { expect } from 'chai';
import { addHolding, createRule, listExecutions, listRules, publishPrices, rulesSuite } from './support.ts';

describe('rules at a price (value_type PRICE)', () => {
  const { app, api, users } = rulesSuite();

  it('sets a fixed stop at the price typed, names it so, and fires there', async () => {
    const user = await users.make();
    await publishPrices(app, { PXSTOP: 1469.75 });
    await addHolding(app, user, 'PXSTOP', 40, 1300);
    const res = await createRule(app, user, {
      symbol: 'PXSTOP',
      trigger_type: 'FIXED_STOP_LOSS',
      value_type: 'PRICE',
      trigger_value: 1400,
    });
    expect(res.status, res.body.error).to.equal(201);
    expect(res.body.data).to.deep.include({
      value_type: 'PRICE',
      trigger_value: 1400,
      computed_trigger_price: 1400,
      rule_name: 'Fixed stop loss at ₹1,400.00',
      peak_price: null,
    });
    await publishPrices(app, { PXSTOP: 1450 });
    await publishPrices(app, { PXSTOP: 1400.05 });
    expect(await listExecutions(app, user), 'not yet at ₹1,400').to.deep.equal([]);
    await publishPrices(app, { PXSTOP: 1399.5 });
    const fired = await listExecutions(app, user);
    expect(fired.map((e) => [e.trigger_type, e.trigger_price, e.execution_price])).to.deep.equal([
      ['FIXED_STOP_LOSS', 1400, 1399.5],
    ]);
  });

  it('sets a profit target at a price, and an edit to another price moves only the level', async () => {
    const user = await users.make();
    await publishPrices(app, { PXTARGET: 1000 });
    await addHolding(app, user, 'PXTARGET', 5, 900);
    const res = await createRule(app, user, {
      symbol: 'PXTARGET',
      trigger_type: 'TAKE_PROFIT',
      value_type: 'PRICE',
      trigger_value: '1250.5',
    });
    expect(res.body.data).to.deep.include({
      computed_trigger_price: 1250.5,
      rule_name: 'Take profit at ₹1,250.50',
    });
    const edited = await api.put(
      `/api/position-rules/${res.body.data!.id}`,
      { trigger_value: 1300 },
      user.token,
    );
    expect(edited.status, edited.body.error).to.equal(200);
    expect(edited.body.data).to.deep.include({
      computed_trigger_price: 1300,
      rule_name: 'Take profit at ₹1,300.00',
    });
  });

  it('refuses a trailing stop at a price with a sentence, and a price the market has crossed', async () => {
    const user = await users.make();
    await publishPrices(app, { PXBAD: 1469.75 });
    await addHolding(app, user, 'PXBAD');
    const trailing = await createRule(app, user, {
      symbol: 'PXBAD',
      trigger_type: 'TRAILING_STOP_LOSS',
      value_type: 'PRICE',
      trigger_value: 1400,
    });
    expect(trailing.status).to.equal(400);
    expect(trailing.body.error).to.equal(
      'A trailing stop follows the price up, so it is set in percent or rupees below the peak, not at a fixed price. Choose Fixed stop loss for a stop at a price.',
    );
    const above = await createRule(app, user, {
      symbol: 'PXBAD',
      trigger_type: 'FIXED_STOP_LOSS',
      value_type: 'PRICE',
      trigger_value: 1500,
    });
    expect(above.body.error).to.equal(
      'The stop loss level ₹1,500.00 is at or above the current price ₹1,469.75; it would fire at once. Choose a lower level.',
    );
    const unknown = await createRule(app, user, {
      symbol: 'PXBAD',
      trigger_type: 'FIXED_STOP_LOSS',
      value_type: 'LEVEL',
      trigger_value: 1,
    });
    expect(unknown.body.error).to.equal('value_type must be PRICE, PERCENT, ABSOLUTE or ATR');
    expect(await listRules(app, user)).to.deep.equal([]);
  });

  it('writes every range in a refusal as money, and says the level a distance would give', async () => {
    const user = await users.make();
    await publishPrices(app, { PXRANGE: 1469.75 });
    await addHolding(app, user, 'PXRANGE');
    const price = await createRule(app, user, {
      symbol: 'PXRANGE',
      trigger_type: 'FIXED_STOP_LOSS',
      value_type: 'PRICE',
      trigger_value: 100,
    });
    expect(price.body.error).to.equal(
      'Rule is not allowed for this price. Trigger price must be between ₹146.98 and ₹2,939.50 based on current price',
    );
    const rupees = await createRule(app, user, {
      symbol: 'PXRANGE',
      trigger_type: 'FIXED_STOP_LOSS',
      value_type: 'ABSOLUTE',
      trigger_value: 1450,
    });
    expect(rupees.body.error).to.equal(
      "Rule is not allowed for this price. Trigger price must be between ₹146.98 and ₹2,939.50 based on current price (this rule's level would be ₹19.75)",
    );
    const bulk = await api.post(
      '/api/position-rules/bulk',
      [{ symbol: 'PXRANGE', trigger_type: 'TAKE_PROFIT', value_type: 'PRICE', trigger_value: 3000 }],
      user.token,
    );
    expect(bulk.body.error).to.equal(
      'Rule is not allowed for PXRANGE. Trigger price must be between ₹146.98 and ₹2,939.50 based on current price',
    );
  });

  it('still takes PERCENT and ABSOLUTE, and PERCENT when no value_type is sent', async () => {
    const user = await users.make();
    await publishPrices(app, { PXOLD: 1000 });
    await addHolding(app, user, 'PXOLD');
    const percent = await createRule(app, user, {
      symbol: 'PXOLD',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
    });
    expect(percent.body.data).to.deep.include({ value_type: 'PERCENT', computed_trigger_price: 950 });
    const rupees = await createRule(app, user, {
      symbol: 'PXOLD',
      trigger_type: 'TAKE_PROFIT',
      value_type: 'ABSOLUTE',
      trigger_value: 50,
    });
    expect(rupees.body.data).to.deep.include({ value_type: 'ABSOLUTE', computed_trigger_price: 1050 });
  });
});
