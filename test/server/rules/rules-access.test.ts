import { expect } from 'chai';
import { addHolding, createRule, forgetQuote, listRules, publishPrices, rulesSuite } from './support.ts';

const trailing7 = {
  symbol: 'RELIANCE',
  exchange: 'NSE',
  trigger_type: 'TRAILING_STOP_LOSS',
  trigger_value: 7,
};

describe('position rules API: ownership, account scope, current prices', () => {
  const { app, api, users } = rulesSuite();
  before(async () => {
    await publishPrices(app, { RELIANCE: 2500 });
  });

  it("never shows, edits or deletes another user's rule (404), nor malformed ids; 401 without a token", async () => {
    const owner = await users.make();
    const intruder = await users.make();
    await addHolding(app, owner, 'RELIANCE', 1, 2000);
    const id = (await createRule(app, owner, trailing7)).body.data!.id;
    expect((await api.get(`/api/position-rules/${id}`, intruder.token)).status).to.equal(404);
    expect(
      (await api.put(`/api/position-rules/${id}`, { trigger_value: 5 }, intruder.token)).status,
    ).to.equal(404);
    expect(
      (await api.patch(`/api/position-rules/${id}`, { is_active: false }, intruder.token)).status,
    ).to.equal(404);
    expect((await api.delete(`/api/position-rules/${id}`, intruder.token)).status).to.equal(404);
    expect((await api.delete('/api/position-rules/123', owner.token)).status).to.equal(404);
    expect((await api.get('/api/position-rules')).status).to.equal(401);
    expect(await listRules(app, intruder)).to.deep.equal([]);
    const deleted = await api.delete(`/api/position-rules/${id}`, owner.token);
    expect(deleted.body.data).to.deep.equal({ id, deleted: true });
    expect((await api.delete(`/api/position-rules/${id}`, owner.token)).status).to.equal(404);
  });

  it("scopes a rule to one of the user's own accounts only", async () => {
    const user = await users.make();
    const other = await users.make();
    await addHolding(app, user, 'RELIANCE', 1, 2000);
    await addHolding(app, other, 'RELIANCE', 1, 2000);
    const [mine] = (await api.get<Array<{ broker_account_id: string }>>('/api/holdings', user.token)).body
      .data!;
    const [theirs] = (await api.get<Array<{ broker_account_id: string }>>('/api/holdings', other.token)).body
      .data!;
    const scoped = { ...trailing7, rule_scope: 'specific_account' };
    const foreign = await createRule(app, user, { ...scoped, target_account_id: theirs!.broker_account_id });
    expect(foreign.status).to.equal(404);
    const own = await createRule(app, user, { ...scoped, target_account_id: mine!.broker_account_id });
    expect(own.status).to.equal(201);
    expect(own.body.data).to.deep.include({
      rule_scope: 'specific_account',
      target_account_id: mine!.broker_account_id,
    });
    const notThere = await createRule(app, user, {
      ...scoped,
      symbol: 'TCS',
      target_account_id: mine!.broker_account_id,
    });
    expect(notThere.body.error).to.equal(
      "That account doesn't hold TCS (NSE). Choose another account, or apply the rule to all holdings.",
    );
  });

  it('answers the latest prices by symbol, NSE first', async () => {
    const user = await users.make();
    await forgetQuote(app, 'HDFCBANK', 'NSE');
    await forgetQuote(app, 'NOPE', 'NSE');
    await publishPrices(app, { ITC: 411, 'BSE:ITC': 410, 'BSE:HDFCBANK': 1010 });
    const res = await api.get<Record<string, { ltp: number; exchange: string; as_of: string }>>(
      '/api/position-rules/current-prices?symbols=RELIANCE, itc,HDFCBANK,NOPE',
      user.token,
    );
    expect(res.status).to.equal(200);
    expect(Object.keys(res.body.data!).sort()).to.deep.equal(['HDFCBANK', 'ITC', 'RELIANCE']);
    expect(res.body.data!.RELIANCE).to.deep.include({ ltp: 2500, exchange: 'NSE', prev_close: null });
    expect(res.body.data!.ITC).to.deep.include({ ltp: 411, exchange: 'NSE' });
    expect(res.body.data!.HDFCBANK).to.deep.include({ ltp: 1010, exchange: 'BSE' });
    expect(Date.parse(res.body.data!.ITC!.as_of)).to.be.a('number');
    const bse = await api.get<Record<string, { ltp: number }>>(
      '/api/position-rules/current-prices?symbols=ITC&exchange=BSE',
      user.token,
    );
    expect(bse.body.data!.ITC!.ltp).to.equal(410);
    expect((await api.get('/api/position-rules/current-prices', user.token)).status).to.equal(400);
  });
});
