import type { ApiRuleExecution } from '@app/common/api/rules';
import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import { apiClient } from '../../helpers/http.ts';
import { connected, connectSocket } from '../../helpers/sockets.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { outboxFor } from '../endpoints/support.ts';
import { addHolding, createRule, listExecutions, listRules, publishPrices, rulesSuite } from './support.ts';
import { waitFor } from '../../helpers/wait.ts';

describe('rules engine: exactly once, trailing levels, monthly email quota', () => {
  const { app, users } = rulesSuite();

  async function seedExecutions(user: SignedInUser, n: number) {
    for (let i = 0; i < n; i++) {
      await app.runtime.deps.db.execute(sql`
        insert into rule_executions (user_id, symbol, exchange, trigger_type, status, trigger_price, execution_price)
        values (${user.id}, 'SEED', 'NSE', 'FIXED_STOP_LOSS', 'SUCCESS', 1, 1)`);
    }
  }

  async function deliveriesOf(execution: ApiRuleExecution): Promise<number> {
    const result = (await app.runtime.deps.db.execute(
      sql`select count(*)::int as n from alert_deliveries where execution_id = ${execution.id}`,
    )) as unknown as { rows: Array<{ n: number }> };
    return Number(result.rows[0]!.n);
  }

  it('claims a crossing once however often the crossing price repeats', async () => {
    const user = await users.make();
    await publishPrices(app, { HDFCBANK: 1000 });
    await addHolding(app, user, 'HDFCBANK');
    await createRule(app, user, { symbol: 'HDFCBANK', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 2 });
    await publishPrices(app, { HDFCBANK: 985 });
    expect(await listExecutions(app, user)).to.deep.equal([]);
    await Promise.all([publishPrices(app, { HDFCBANK: 979 }), publishPrices(app, { HDFCBANK: 978 })]);
    await publishPrices(app, { HDFCBANK: 950 });
    const executions = await listExecutions(app, user);
    expect(executions.map((e) => [e.execution_price, e.trigger_price])).to.deep.equal([[979, 980]]);
    expect(await deliveriesOf(executions[0]!)).to.equal(1);
  });

  it('raises a trailing stop with the peak, stores it, and pushes the new level', async () => {
    const user = await users.make();
    await publishPrices(app, { ICICIBANK: 1000 });
    await addHolding(app, user, 'ICICIBANK');
    const { body } = await createRule(app, user, {
      symbol: 'ICICIBANK',
      trigger_type: 'TRAILING_STOP_LOSS',
      trigger_value: 10,
    });
    const socket = connectSocket(app.url, user.token);
    try {
      await connected(socket);
      const levels = new Promise((resolve) => socket.once('rules:levels', resolve));
      await publishPrices(app, { ICICIBANK: 1200 });
      expect(await levels).to.deep.equal([
        { id: body.data!.id, peak_price: 1200, computed_trigger_price: 1080 },
      ]);
      await publishPrices(app, { ICICIBANK: 1100 });
      const [rule] = await listRules(app, user);
      expect(rule).to.deep.include({ peak_price: 1200, computed_trigger_price: 1080, is_active: true });
      await publishPrices(app, { ICICIBANK: 1080 });
      const [fired] = await listExecutions(app, user);
      expect(fired).to.deep.include({
        trigger_price: 1080,
        execution_price: 1080,
        trigger_type: 'TRAILING_STOP_LOSS',
      });
    } finally {
      socket.close();
    }
  });

  it('emails a Basic user the first 5 triggers of the month, notes the 5th, records the 6th in-app only', async () => {
    const user = await users.make('basic');
    await publishPrices(app, { KOTAKBANK: 2000, AXISBANK: 1200 });
    await addHolding(app, user, 'KOTAKBANK');
    await addHolding(app, user, 'AXISBANK');
    await seedExecutions(user, 4);
    await createRule(app, user, { symbol: 'KOTAKBANK', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 });
    await createRule(app, user, { symbol: 'AXISBANK', trigger_type: 'TAKE_PROFIT', trigger_value: 5 });
    await publishPrices(app, { KOTAKBANK: 1890 });
    const fifth = await waitFor('the fifth email', async () => {
      const mail = await outboxFor(app, user.email);
      return mail.length === 1 ? mail[0] : undefined;
    });
    expect(fifth.text).to.include("You've reached this month's email alert limit on the Basic tier");

    await publishPrices(app, { AXISBANK: 1300 });
    const sixth = (await listExecutions(app, user)).find((e) => e.symbol === 'AXISBANK')!;
    expect(sixth).to.deep.include({ over_quota: true, status: 'IN_APP_ONLY' });
    expect(sixth.message).to.equal(
      'AXISBANK gapped through your profit target: level ₹1,260.00, price ₹1,300.00. Not emailed: the monthly alert limit of 5 emails on the Basic tier was reached. Upgrade to the Advanced tier for unlimited email alerts.',
    );
    expect(await deliveriesOf(sixth)).to.equal(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await outboxFor(app, user.email)).to.have.length(1);
    const quota = await apiClient(app.url).get('/api/alerts/quota', user.token);
    expect(quota.body.data).to.deep.include({ used: 5, total: 5, remaining: 0, subscription_tier: 'basic' });
  });

  it('emails every trigger of an Advanced user', async () => {
    const user = await users.make('advanced');
    await publishPrices(app, { LT: 4000 });
    await addHolding(app, user, 'LT');
    await seedExecutions(user, 7);
    await createRule(app, user, { symbol: 'LT', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 1 });
    await publishPrices(app, { LT: 3900 });
    const [execution] = await listExecutions(app, user);
    expect(execution).to.deep.include({ over_quota: false, symbol: 'LT' });
    expect(await deliveriesOf(execution!)).to.equal(1);
    await waitFor('the email', async () =>
      (await outboxFor(app, user.email)).length === 1 ? true : undefined,
    );
    const quota = await apiClient(app.url).get('/api/alerts/quota', user.token);
    expect(quota.body.data).to.deep.include({
      used: 8,
      total: null,
      remaining: null,
      subscription_tier: 'advanced',
    });
  });

  it('does not fire disabled or deleted rules; a re-enabled rule fires from its new level', async () => {
    const api = apiClient(app.url);
    const user = await users.make();
    await publishPrices(app, { MARUTI: 16000, SUNPHARMA: 1800 });
    await addHolding(app, user, 'MARUTI');
    await addHolding(app, user, 'SUNPHARMA');
    const maruti = (
      await createRule(app, user, { symbol: 'MARUTI', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 })
    ).body.data!;
    const sun = (
      await createRule(app, user, { symbol: 'SUNPHARMA', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 })
    ).body.data!;
    await api.patch(`/api/position-rules/${maruti.id}`, { is_active: false }, user.token);
    await api.delete(`/api/position-rules/${sun.id}`, user.token);
    await publishPrices(app, { MARUTI: 15000, SUNPHARMA: 1500 });
    expect(await listExecutions(app, user)).to.deep.equal([]);
    // Its kept level, ₹15,200, is above the price now: enabled as it is, it would fire at once.
    const kept = await api.patch(`/api/position-rules/${maruti.id}`, { is_active: true }, user.token);
    expect(kept.status).to.equal(400);
    const rearmed = await api.patch<{ computed_trigger_price: number }>(
      `/api/position-rules/${maruti.id}`,
      { is_active: true, level: 'from_price' },
      user.token,
    );
    expect(rearmed.body.data!.computed_trigger_price).to.equal(14250);
    await publishPrices(app, { MARUTI: 14300 });
    expect(await listExecutions(app, user)).to.deep.equal([]);
    await publishPrices(app, { MARUTI: 14250 });
    expect((await listExecutions(app, user)).map((e) => e.execution_price)).to.deep.equal([14250]);
  });
});
