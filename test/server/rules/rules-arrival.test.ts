/**
 * Rules that cannot fire on arrival (issue 17): a stop at or above the current price, or a take
 * profit at or below it, is refused with a sentence naming both; a template skips those
 * holdings and lists them; a template's buy price is each account's own.
 */
import type { ApiBulkCreateResult, ApiPositionRule } from '@app/common/api/rules';
import { BUILT_IN_TEMPLATES, templateRules } from '@app/common/rules/wizard';
import { expect } from 'chai';
import type { SignedInUser } from '../../helpers/users.ts';
import { addHolding, createRule, listExecutions, listRules, publishPrices, rulesSuite } from './support.ts';

const FIVE_PERCENT = BUILT_IN_TEMPLATES[0]!;

describe('position rules: a rule never fires on arrival', () => {
  const { app, api, users } = rulesSuite();

  const fromBuyPrice = (symbol: string, trigger_type: string, trigger_value: number) => ({
    symbol,
    trigger_type,
    trigger_value,
    value_type: 'PERCENT',
    reference: 'buy_price',
  });

  it('refuses a stop loss already above the price, naming the level and the price; nothing is saved or sent', async () => {
    const user = await users.make();
    // Bought at ₹1,000, now 18 % down: a 5 % stop from the buy price sits at ₹950, above ₹820.
    await publishPrices(app, { HEROMOTOCO: 820 });
    await addHolding(app, user, 'HEROMOTOCO', 10, 1000);
    const res = await createRule(app, user, fromBuyPrice('HEROMOTOCO', 'FIXED_STOP_LOSS', 5));
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal(
      'The stop loss level ₹950.00 is at or above the current price ₹820.00; it would fire at once. Choose a lower level.',
    );
    const trailing = await createRule(app, user, fromBuyPrice('HEROMOTOCO', 'TRAILING_STOP_LOSS', 7));
    expect(trailing.body.error).to.equal(
      'The trailing stop level ₹930.00 is at or above the current price ₹820.00; it would fire at once. Choose a lower level.',
    );
    await publishPrices(app, { HEROMOTOCO: 815 });
    expect(await listRules(app, user)).to.deep.equal([]);
    expect(await listExecutions(app, user)).to.deep.equal([]);
  });

  it('refuses a take profit already below the price; a level exactly at the price is refused too', async () => {
    const user = await users.make();
    await publishPrices(app, { EICHERMOT: 1200 });
    await addHolding(app, user, 'EICHERMOT', 10, 1000);
    const res = await createRule(app, user, fromBuyPrice('EICHERMOT', 'TAKE_PROFIT', 10));
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal(
      'The take profit level ₹1,100.00 is at or below the current price ₹1,200.00; it would fire at once. Choose a higher level.',
    );
    await publishPrices(app, { EICHERMOT: 1100 });
    const atPrice = await createRule(app, user, fromBuyPrice('EICHERMOT', 'TAKE_PROFIT', 10));
    expect(atPrice.body.error).to.match(
      /^The take profit level ₹1,100.00 is at or below the current price ₹1,100.00/,
    );
    await publishPrices(app, { EICHERMOT: 1099.95 });
    expect((await createRule(app, user, fromBuyPrice('EICHERMOT', 'TAKE_PROFIT', 10))).status).to.equal(201);
  });

  it('refuses an edit that would put a template rule past the price', async () => {
    const user = await users.make();
    await publishPrices(app, { TVSMOTOR: 960 });
    await addHolding(app, user, 'TVSMOTOR', 10, 1000);
    const rule = (await createRule(app, user, fromBuyPrice('TVSMOTOR', 'FIXED_STOP_LOSS', 5))).body.data!;
    const edited = await api.put<ApiPositionRule>(
      `/api/position-rules/${rule.id}`,
      { trigger_value: 2 },
      user.token,
    );
    expect(edited.status).to.equal(400);
    expect(edited.body.error).to.equal(
      'The stop loss level ₹980.00 is at or above the current price ₹960.00; it would fire at once. Choose a lower level.',
    );
    const [kept] = await listRules(app, user);
    expect(kept).to.deep.include({ trigger_value: 5, computed_trigger_price: 950 });
  });

  it('a template skips the holdings it would fire on at once and lists them; the rest are saved', async () => {
    const user = await users.make();
    await publishPrices(app, { BAJAJFINSV: 1500, SHREECEM: 27000 });
    await addHolding(app, user, 'BAJAJFINSV', 10, 1800);
    await addHolding(app, user, 'SHREECEM', 1, 25000);
    const body = templateRules(FIVE_PERCENT, {
      template_id: FIVE_PERCENT.id,
      holdings: ['NSE:BAJAJFINSV', 'NSE:SHREECEM'],
      scope: 'all',
      account_id: null,
    });
    const res = await api.post<ApiBulkCreateResult>('/api/position-rules/bulk', { rules: body }, user.token);
    expect(res.status, res.body.error).to.equal(201);
    expect(res.body.data!.created).to.equal(1);
    expect(res.body.data!.rules.map((r) => [r.symbol, r.computed_trigger_price])).to.deep.equal([
      ['SHREECEM', 23750],
    ]);
    expect(res.body.data!.skipped).to.deep.equal([
      {
        symbol: 'BAJAJFINSV',
        exchange: 'NSE',
        target_account_id: null,
        reason:
          'The stop loss level ₹1,710.00 is at or above the current price ₹1,500.00; it would fire at once. Choose a lower level.',
      },
    ]);

    // Only such holdings: nothing to save, and the answer says why for each.
    const none = await api.post('/api/position-rules/bulk', { rules: body.slice(0, 1) }, user.token);
    expect(none.status).to.equal(400);
    expect(none.body.error).to.equal(
      'BAJAJFINSV: The stop loss level ₹1,710.00 is at or above the current price ₹1,500.00; it would fire at once. Choose a lower level.',
    );
  });

  it("measures a template from each account's own buy price, not the weighted average", async () => {
    const user = await users.make();
    await publishPrices(app, { DIVISLAB: 1200 });
    await addHolding(app, user, 'DIVISLAB', 10, 1000);
    const upload = await api.post(
      '/api/holdings/upload-csv',
      { csvData: 'Symbol,Quantity,Buy Price\nDIVISLAB,10,1400\n', broker_name: 'Groww' },
      user.token,
    );
    expect(upload.status, upload.body.error).to.equal(201);
    const held = (
      await api.get<Array<{ symbol: string; broker_account_id: string; average_price: number }>>(
        '/api/holdings',
        user.token,
      )
    ).body.data!.filter((h) => h.symbol === 'DIVISLAB');
    expect(held).to.have.length(2);
    const accountOf = (price: number) => held.find((h) => h.average_price === price)!.broker_account_id;

    const body = templateRules(
      FIVE_PERCENT,
      { template_id: FIVE_PERCENT.id, holdings: ['NSE:DIVISLAB'], scope: 'all', account_id: null },
      () => held.map((h) => h.broker_account_id),
    );
    const res = await api.post<ApiBulkCreateResult>('/api/position-rules/bulk', { rules: body }, user.token);
    expect(res.status, res.body.error).to.equal(201);
    // Weighted average 1,200 would put one stop at 1,140 for both; each account's own: 950 and 1,330.
    expect(
      res.body.data!.rules.map((r) => [r.target_account_id, r.reference_price, r.computed_trigger_price]),
    ).to.deep.equal([[accountOf(1000), 1000, 950]]);
    expect(res.body.data!.skipped.map((s) => [s.target_account_id, s.reason])).to.deep.equal([
      [
        accountOf(1400),
        'The stop loss level ₹1,330.00 is at or above the current price ₹1,200.00; it would fire at once. Choose a lower level.',
      ],
    ]);
  });

  it('a current-price rule is unaffected: measured from the price, it can never be crossed on arrival', async () => {
    const user = await users.make();
    await publishPrices(app, { COLPAL: 2500 });
    await addHolding(app, user, 'COLPAL', 10, 3000);
    const res = await createRule(app, user, {
      symbol: 'COLPAL',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
    });
    expect(res.status, res.body.error).to.equal(201);
    expect(res.body.data).to.deep.include({ reference_price: 2500, computed_trigger_price: 2375 });
  });
});

describe('position rules: editing the value renames a generated name', () => {
  const { app, api, users } = rulesSuite();

  const edit = (user: SignedInUser, id: string, body: Record<string, unknown>) =>
    api.put<ApiPositionRule>(`/api/position-rules/${id}`, body, user.token);

  it("'Trailing stop loss 7%' set to 12 % becomes 'Trailing stop loss 12%'; a typed name stays", async () => {
    const user = await users.make();
    await publishPrices(app, { PIDILITIND: 3000 });
    await addHolding(app, user, 'PIDILITIND', 10, 2800);
    const rule = { symbol: 'PIDILITIND', trigger_type: 'TRAILING_STOP_LOSS', trigger_value: 7 };
    const generated = (await createRule(app, user, rule)).body.data!;
    expect(generated.rule_name).to.equal('Trailing stop loss 7%');
    const renamed = await edit(user, generated.id, { trigger_value: 12 });
    expect(renamed.status, renamed.body.error).to.equal(200);
    expect(renamed.body.data!.rule_name).to.equal('Trailing stop loss 12%');
    const retyped = await edit(user, generated.id, {
      trigger_type: 'FIXED_STOP_LOSS',
      value_type: 'ABSOLUTE',
      trigger_value: 50,
    });
    expect(retyped.body.data!.rule_name).to.equal('Fixed stop loss ₹50.00');

    const named = (await createRule(app, user, { ...rule, rule_name: 'Pidilite guard' })).body.data!;
    const kept = await edit(user, named.id, { trigger_value: 12 });
    expect(kept.body.data!.rule_name).to.equal('Pidilite guard');
  });

  it("a template's name follows its value too: '5% Fixed Stop Loss' set to 8 %", async () => {
    const user = await users.make();
    await publishPrices(app, { BERGEPAINT: 600 });
    await addHolding(app, user, 'BERGEPAINT', 10, 500);
    const [body] = templateRules(FIVE_PERCENT, {
      template_id: FIVE_PERCENT.id,
      holdings: ['NSE:BERGEPAINT'],
      scope: 'all',
      account_id: null,
    });
    const created = (await createRule(app, user, body!)).body.data!;
    expect(created.rule_name).to.equal('5% Fixed Stop Loss');
    const edited = await edit(user, created.id, { trigger_value: 8 });
    expect(edited.body.data).to.deep.include({
      rule_name: 'Fixed stop loss 8%',
      computed_trigger_price: 460,
    });
  });
});
