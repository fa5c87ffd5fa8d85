import type { ApiBulkActionResult, ApiBulkCreateResult, ApiPositionRule } from '@app/common/api/rules';
import { expect } from 'chai';
import { addHolding, createRule, forgetQuote, listRules, publishPrices, rulesSuite } from './support.ts';

const trailing7 = {
  symbol: 'RELIANCE',
  exchange: 'NSE',
  trigger_type: 'TRAILING_STOP_LOSS',
  trigger_value: 7,
};

describe('position rules API: create, list, edit, enable, disable, bulk, delete', () => {
  const { app, api, users } = rulesSuite();
  before(async () => {
    await publishPrices(app, { RELIANCE: 2500, TCS: 3200, INFY: 1500, SBIN: 800 });
  });

  it("arms a rule from the server's latest quote, ignoring the client's preview, and lists it live", async () => {
    const user = await users.make();
    await addHolding(app, user, 'RELIANCE', 10, 2000);
    const res = await createRule(app, user, { ...trailing7, rule_name: 'Guard', computed_trigger_price: 1 });
    expect(res.status).to.equal(201);
    expect(res.body.data).to.deep.include({
      symbol: 'RELIANCE',
      rule_name: 'Guard',
      rule_scope: 'all_holdings',
      action_type: 'ALERT',
      trigger_value: 7,
      value_type: 'PERCENT',
      reference_price: 2500,
      peak_price: 2500,
      computed_trigger_price: 2325,
      is_active: true,
      status: 'ACTIVE',
      priority: 1,
      execution_count: 0,
      last_triggered_at: null,
      current_price: 2500,
    });
    const [listed] = await listRules(app, user);
    expect(listed).to.deep.equal(res.body.data);
    const one = await api.get<ApiPositionRule>(`/api/position-rules/${res.body.data!.id}`, user.token);
    expect(one.body.data).to.deep.equal(res.body.data);
  });

  it('names a rule after itself when no name is given, and measures templates from the buy price', async () => {
    const user = await users.make();
    await addHolding(app, user, 'TCS', 4, 3000);
    const res = await createRule(app, user, {
      symbol: 'TCS',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
      reference: 'buy_price',
    });
    expect(res.status).to.equal(201);
    expect(res.body.data).to.deep.include({
      rule_name: 'Fixed stop loss 5%',
      reference_price: 3000,
      computed_trigger_price: 2850,
      peak_price: null,
    });
    const profit = await createRule(app, user, {
      symbol: 'TCS',
      trigger_type: 'TAKE_PROFIT',
      trigger_value: 100,
      value_type: 'ABSOLUTE',
    });
    expect(profit.body.data).to.deep.include({
      computed_trigger_price: 3300,
      rule_name: 'Take profit ₹100.00',
    });
  });

  it('refuses with the documented texts: trigger value, invalid trigger, bounds, SELL, no price, not held', async () => {
    const user = await users.make();
    await addHolding(app, user, 'RELIANCE', 1, 2000);
    await addHolding(app, user, 'WIPRO', 1, 250);
    await forgetQuote(app, 'WIPRO');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...trailing7, trigger_value: 0 }, 'Please enter a valid trigger value greater than 0'],
      [{ ...trailing7, trigger_value: '-3' }, 'Please enter a valid trigger value greater than 0'],
      [
        { ...trailing7, value_type: 'ABSOLUTE', trigger_value: 2500 },
        'Invalid trigger price calculated. Please check your input.',
      ],
      [
        { ...trailing7, trigger_value: 95 },
        "Rule is not allowed for this price. Trigger price must be between ₹250.00 and ₹5,000.00 based on current price (this rule's level would be ₹125.00)",
      ],
      [
        { ...trailing7, trigger_type: 'TAKE_PROFIT', trigger_value: 150 },
        "Rule is not allowed for this price. Trigger price must be between ₹250.00 and ₹5,000.00 based on current price (this rule's level would be ₹6,250.00)",
      ],
      [{ ...trailing7, action_type: 'SELL' }, 'Automatic sell orders are coming soon'],
      [
        { ...trailing7, symbol: 'WIPRO' },
        'No price data available for WIPRO. Prices update every minute; please try again shortly.',
      ],
      [
        { ...trailing7, symbol: 'INFY' },
        "You don't hold INFY (NSE). Add the holding first, or set a price alert instead.",
      ],
    ];
    for (const [body, message] of cases) {
      const res = await createRule(app, user, body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error).to.equal(message);
    }
    expect(await listRules(app, user)).to.deep.equal([]);
  });

  it('edits a rule: a new trigger re-arms it from the current price, a new name keeps its levels', async () => {
    const user = await users.make();
    await addHolding(app, user, 'INFY', 3, 1400);
    const { body } = await createRule(app, user, {
      symbol: 'INFY',
      trigger_type: 'TRAILING_STOP_LOSS',
      trigger_value: 10,
    });
    const id = body.data!.id;
    await publishPrices(app, { INFY: 1600 });
    const renamed = await api.put<ApiPositionRule>(
      `/api/position-rules/${id}`,
      { rule_name: 'Infosys guard' },
      user.token,
    );
    expect(renamed.status).to.equal(200);
    expect(renamed.body.data).to.deep.include({ rule_name: 'Infosys guard', reference_price: 1500 });
    const edited = await api.put<ApiPositionRule>(
      `/api/position-rules/${id}`,
      { trigger_value: 5 },
      user.token,
    );
    expect(edited.body.data).to.deep.include({
      trigger_value: 5,
      reference_price: 1600,
      peak_price: 1600,
      computed_trigger_price: 1520,
      rule_name: 'Infosys guard',
    });
    const bad = await api.put(`/api/position-rules/${id}`, { trigger_value: 95 }, user.token);
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.equal(
      "Rule is not allowed for this price. Trigger price must be between ₹160.00 and ₹3,200.00 based on current price (this rule's level would be ₹80.00)",
    );
  });

  it('disables (Inactive) and enables a rule, re-arming it at the current price with a fresh peak', async () => {
    const user = await users.make();
    await addHolding(app, user, 'SBIN', 10, 700);
    const { body } = await createRule(app, user, {
      symbol: 'SBIN',
      trigger_type: 'TRAILING_STOP_LOSS',
      trigger_value: 10,
    });
    const id = body.data!.id;
    const off = await api.patch<ApiPositionRule>(
      `/api/position-rules/${id}`,
      { is_active: false },
      user.token,
    );
    expect(off.body.data).to.deep.include({ is_active: false, status: 'INACTIVE' });
    await publishPrices(app, { SBIN: 900 });
    const on = await api.patch<ApiPositionRule>(`/api/position-rules/${id}`, { is_active: true }, user.token);
    expect(on.body.data).to.deep.include({
      is_active: true,
      status: 'ACTIVE',
      reference_price: 900,
      peak_price: 900,
      computed_trigger_price: 810,
    });
    const bad = await api.patch(`/api/position-rules/${id}`, { is_active: 'yes' }, user.token);
    expect(bad.status).to.equal(400);
  });

  it('saves what it can from a list, and lists each rule it could not save with its reason', async () => {
    const user = await users.make();
    await addHolding(app, user, 'RELIANCE', 1, 2000);
    await addHolding(app, user, 'TCS', 1, 3000);
    await addHolding(app, user, 'WIPRO', 1, 250);
    await forgetQuote(app, 'WIPRO');
    const rules = [
      { ...trailing7 },
      { symbol: 'TCS', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 95 },
      { symbol: 'WIPRO', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 },
    ];
    const saved = await api.post<ApiBulkCreateResult>('/api/position-rules/bulk', { rules }, user.token);
    expect(saved.status, saved.body.error).to.equal(201);
    expect(saved.body.data!.created).to.equal(1);
    expect(saved.body.data!.rules.map((r) => [r.symbol, r.computed_trigger_price])).to.deep.equal([
      ['RELIANCE', 2325],
    ]);
    expect(saved.body.data!.skipped.map((s) => [s.symbol, s.reason])).to.deep.equal([
      [
        'TCS',
        "Rule is not allowed for this price. Trigger price must be between ₹320.00 and ₹6,400.00 based on current price (this rule's level would be ₹160.00)",
      ],
      ['WIPRO', 'No price data available for WIPRO. Prices update every minute; please try again shortly.'],
    ]);
    expect((await listRules(app, user)).map((r) => r.symbol)).to.deep.equal(['RELIANCE']);

    // Nothing that can be saved: a 400 listing each problem with its symbol, nothing saved.
    const refused = await api.post('/api/position-rules/bulk', { rules: rules.slice(1) }, user.token);
    expect(refused.status).to.equal(400);
    expect(refused.body.error).to.equal(
      'None of these 2 rules was saved: each one is listed with its reason.',
    );
    expect(refused.body.details).to.deep.equal([
      "Rule is not allowed for TCS. Trigger price must be between ₹320.00 and ₹6,400.00 based on current price (this rule's level would be ₹160.00)",
      'No price data available for WIPRO. Prices update every minute; please try again shortly.',
    ]);
    expect(await listRules(app, user)).to.have.length(1);
    const empty = await api.post('/api/position-rules/bulk', { rules: [] }, user.token);
    expect(empty.body.error).to.equal('No valid rules to save. Ensure trigger values are > 0.');
  });

  it("enables, disables and deletes in bulk, all or nothing; other users' ids are 404", async () => {
    const user = await users.make();
    const other = await users.make();
    await addHolding(app, user, 'RELIANCE', 1, 2000);
    await addHolding(app, other, 'RELIANCE', 1, 2000);
    const a = (await createRule(app, user, trailing7)).body.data!.id;
    const b = (await createRule(app, user, { ...trailing7, trigger_type: 'TAKE_PROFIT', trigger_value: 10 }))
      .body.data!.id;
    const foreign = (await createRule(app, other, trailing7)).body.data!.id;

    const off = await api.post<ApiBulkActionResult>(
      '/api/position-rules/bulk-action',
      { ids: [a, b], action: 'disable' },
      user.token,
    );
    expect(off.status).to.equal(200);
    expect(off.body.data!.rules.map((r) => r.status)).to.deep.equal(['INACTIVE', 'INACTIVE']);
    const on = await api.post<ApiBulkActionResult>(
      '/api/position-rules/bulk-action',
      { ids: [a, b], action: 'enable' },
      user.token,
    );
    expect(on.body.data!.rules.map((r) => r.is_active)).to.deep.equal([true, true]);

    for (const ids of [
      [a, foreign],
      [a, 'not-a-uuid'],
    ]) {
      const res = await api.post('/api/position-rules/bulk-action', { ids, action: 'delete' }, user.token);
      expect(res.status).to.equal(404);
      expect(res.body.error).to.equal('Some of these rules were not found');
    }
    expect(await listRules(app, user)).to.have.length(2);
    expect(await listRules(app, other)).to.have.length(1);
    const gone = await api.post<ApiBulkActionResult>(
      '/api/position-rules/bulk-action',
      { ids: [a, b], action: 'delete' },
      user.token,
    );
    expect(gone.body.data!.action).to.equal('delete');
    expect([...gone.body.data!.ids].sort()).to.deep.equal([a, b].sort());
    expect(await listRules(app, user)).to.deep.equal([]);
  });
});
