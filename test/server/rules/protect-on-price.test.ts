/**
 * Protection that arrives with the price (issue #28): with "Protect new holdings" on, a holding
 * added before its instrument has a price waits, and gets its Price Guard rule from the first
 * batch that prices it, exactly once (across instances too), and the user is told: a History row,
 * the `alert` push (the toast) and `rules:changed` on their sockets.
 */
import type { ApiRuleExecution } from '@app/common/api/rules';
import type { ApiAlertQuota } from '@app/common/api/rules';
import type { ApiNewHoldingsProtection } from '@app/common/rules/index';
import { expect } from 'chai';
import { ingestTickBatch } from '../../helpers/ingest.ts';
import { protectOnFirstPrice } from '../../../server/src/rules/protect-on-price.ts';
import type { TestApp } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import { connected, connectSocket } from '../../helpers/sockets.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { waitFor } from '../../helpers/wait.ts';
import {
  forgetQuote,
  listExecutions,
  listRules,
  publishPrices,
  rulesSuite,
  tickBatch,
  twoInstancesSuite,
} from './support.ts';

const MESSAGE = 'WIPRO got its first price, ₹450.00: Price Guard set a 7% trailing stop alert at ₹418.50.';

/** Turns "Protect new holdings" on and adds WIPRO by hand before it has a price. */
async function waitingWipro(app: TestApp, user: SignedInUser): Promise<void> {
  const api = apiClient(app.url);
  await forgetQuote(app, 'WIPRO');
  expect((await api.put('/api/settings', { protect_new_holdings: true }, user.token)).status).to.equal(200);
  const res = await api.post<{ price_guard: ApiNewHoldingsProtection }>(
    '/api/holdings/manual',
    { symbol: 'WIPRO', exchange: 'NSE', quantity: 30, average_price: 420 },
    user.token,
  );
  expect(res.status, res.body.error).to.equal(201);
  expect(res.body.data!.price_guard).to.deep.equal({ protected: 0, no_price: 1, over_limit: 0 });
}

const guardRows = (executions: ApiRuleExecution[]) =>
  executions.filter((e) => e.execution_type === 'PRICE_GUARD');

describe('position rules: Price Guard on a holding’s first price', () => {
  const { app, api, users } = rulesSuite();

  it('gives a holding waiting for its price the rule on its first price, once, and tells the user', async () => {
    const user = await users.make();
    await waitingWipro(app, user);
    expect(await listRules(app, user)).to.deep.equal([]);
    const socket = connectSocket(app.url, user.token);
    const alerts: ApiRuleExecution[] = [];
    let rulesChanged = 0;
    socket.on('alert', ({ execution }) => alerts.push(execution));
    socket.on('rules:changed', () => (rulesChanged += 1));
    try {
      await connected(socket);
      // A batch without WIPRO changes nothing.
      await publishPrices(app, { TCS: 3000 });
      expect(await listRules(app, user)).to.deep.equal([]);

      await publishPrices(app, { WIPRO: 450 });
      const [rule, ...more] = await listRules(app, user);
      expect(more).to.deep.equal([]);
      expect(rule).to.deep.include({
        symbol: 'WIPRO',
        rule_scope: 'specific_account',
        action_type: 'ALERT',
        trigger_type: 'TRAILING_STOP_LOSS',
        trigger_value: 7,
        value_type: 'PERCENT',
        reference_price: 450,
        computed_trigger_price: 418.5,
        is_active: true,
      });
      await waitFor('the alert push and rules:changed', () => alerts.length === 1 && rulesChanged > 0, 5_000);
      expect(alerts[0]).to.deep.include({
        symbol: 'WIPRO',
        execution_type: 'PRICE_GUARD',
        status: 'IN_APP_ONLY',
        trigger_price: 418.5,
        execution_price: 450,
        message: MESSAGE,
      });
      expect(guardRows(await listExecutions(app, user)).map((e) => e.message)).to.deep.equal([MESSAGE]);

      // The next prices give it no second rule and tell nobody again.
      await publishPrices(app, { WIPRO: 455 });
      await publishPrices(app, { WIPRO: 460 });
      expect(await listRules(app, user)).to.have.length(1);
      expect(guardRows(await listExecutions(app, user))).to.have.length(1);
      expect(alerts).to.have.length(1);
      // A notice, not an alert: the monthly quota is untouched.
      const quota = await api.get<ApiAlertQuota>('/api/alerts/quota', user.token);
      expect(quota.body.data!.used).to.equal(0);
    } finally {
      socket.close();
    }
  });

  it('gives no rule when the setting was turned off while the holding waited', async () => {
    const user = await users.make();
    await waitingWipro(app, user);
    await api.put('/api/settings', { protect_new_holdings: false }, user.token);
    await publishPrices(app, { WIPRO: 500 });
    expect(await listRules(app, user)).to.deep.equal([]);
    expect(guardRows(await listExecutions(app, user))).to.deep.equal([]);
  });
});

describe('position rules: Price Guard on a first price, two instances', () => {
  const { a, b, users } = twoInstancesSuite();

  it('creates the rule exactly once when both instances handle the same batch', async () => {
    const user = await users.make();
    await waitingWipro(a, user);
    // Both instances take the batch as theirs (a lease changing hands), at the same moment.
    const batch = tickBatch({ WIPRO: 450 });
    await ingestTickBatch(a.runtime.deps.db, batch);
    const deps = (app: TestApp) => ({
      db: app.runtime.deps.db,
      events: app.runtime.deps.events,
      log: app.runtime.deps.log,
      now: app.runtime.deps.now,
    });
    await Promise.all([protectOnFirstPrice(deps(a), batch), protectOnFirstPrice(deps(b), batch)]);
    expect((await listRules(a, user)).map((r) => [r.symbol, r.computed_trigger_price])).to.deep.equal([
      ['WIPRO', 418.5],
    ]);
    expect(guardRows(await listExecutions(a, user)).map((e) => e.message)).to.deep.equal([MESSAGE]);
  });
});
