import type { ApiAlertsOverview, ApiPriceAlert } from '@app/common/api/price-alerts';
import type { ApiAlertQuota, ApiExecutionsPage, ApiRuleExecution } from '@app/common/api/rules';
import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import { ruleExecutions } from '../../../server/src/db/schema.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { publishPrices, rulesSuite } from '../rules/support.ts';
import { waitFor } from '../../helpers/wait.ts';

describe('alerts API: price alerts, the feed behind the bell, history, quota, executions', () => {
  const { app, api, users } = rulesSuite();
  before(async () => {
    await publishPrices(app, { INFY: 1500, 'BSE:SBIN': 800 });
  });

  const overview = async (user: SignedInUser) =>
    (await api.get<ApiAlertsOverview>('/api/alerts', user.token)).body.data!;

  async function seedExecution(user: SignedInUser, daysAgo: number, symbol = 'ITC') {
    const [row] = await app.runtime.deps.db
      .insert(ruleExecutions)
      .values({
        userId: user.id,
        symbol,
        exchange: 'NSE',
        triggerType: 'FIXED_STOP_LOSS',
        status: 'SUCCESS',
        triggerPrice: '400',
        executionPrice: '399',
        executedAt: sql`now() - ${daysAgo} * interval '1 day'`,
      })
      .returning();
    return row!.id;
  }

  it('arms a price alert on any listed instrument, watches it, and fires it once', async () => {
    const user = await users.make();
    const res = await api.post<ApiPriceAlert>(
      '/api/alerts',
      { symbol: 'infy', direction: 'above', price: '1600' },
      user.token,
    );
    expect(res.status).to.equal(201);
    expect(res.body.data).to.deep.include({
      symbol: 'INFY',
      exchange: 'NSE',
      company_name: 'Infosys Limited',
      direction: 'above',
      price: 1600,
      status: 'ACTIVE',
      current_price: 1500,
    });
    await waitFor('INFY in the watch set', async () => {
      const watched = await app.runtime.bus.getWatchSet();
      return watched.some((w) => w.symbol === 'INFY') ? true : undefined;
    });
    await publishPrices(app, { INFY: 1599 });
    expect((await overview(user)).feed).to.deep.equal([]);
    await publishPrices(app, { INFY: 1600.5 });
    await publishPrices(app, { INFY: 1650 });
    const { feed, unread, price_alerts } = await overview(user);
    expect(feed).to.have.length(1);
    expect(unread).to.equal(1);
    expect(feed[0]).to.deep.include({
      trigger_type: 'PRICE_ABOVE',
      price_alert_id: res.body.data!.id,
      rule_id: null,
      trigger_price: 1600,
      execution_price: 1600.5,
      read: false,
      rule_name: 'Price above ₹1,600.00',
      message: 'INFY rose to ₹1,600.50, at or above your alert price of ₹1,600.00',
    });
    expect(price_alerts[0]).to.deep.include({ status: 'TRIGGERED', is_active: false });
    expect(price_alerts[0]!.triggered_at).to.be.a('string');
  });

  it('refuses a level the price has already crossed, storing nothing (it would fire at once)', async () => {
    const user = await users.make();
    await publishPrices(app, { PIDILITIND: 1500 });
    const post = (direction: string, price: number) =>
      api.post('/api/alerts', { symbol: 'PIDILITIND', direction, price }, user.token);
    const above = await post('above', 1450);
    expect(above.status).to.equal(400);
    expect(above.body.error).to.equal(
      'PIDILITIND is at ₹1,500.00, already at or above ₹1,450.00: this alert would fire at once. Choose a price above ₹1,500.00.',
    );
    expect((await post('below', 1500)).status).to.equal(400);
    expect((await overview(user)).price_alerts).to.deep.equal([]);
    expect((await post('below', 1450)).status).to.equal(201);
  });

  it('refuses unknown symbols and bad prices with a sentence', async () => {
    const user = await users.make();
    const unknown = await api.post(
      '/api/alerts',
      { symbol: 'NOPE', direction: 'below', price: 10 },
      user.token,
    );
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error).to.equal(
      'NOPE is not listed on NSE. Search for the symbol and pick it from the list.',
    );
    const zero = await api.post('/api/alerts', { symbol: 'INFY', direction: 'below', price: 0 }, user.token);
    expect(zero.body.error).to.equal('Please enter a price greater than 0');
    const sideways = await api.post(
      '/api/alerts',
      { symbol: 'INFY', direction: 'sideways', price: 1 },
      user.token,
    );
    expect(sideways.body.error).to.equal('direction must be above or below');
  });

  it('PUT marks a feed item read, or edits and re-arms a price alert; DELETE dismisses or removes', async () => {
    const user = await users.make();
    const alert = (
      await api.post<ApiPriceAlert>(
        '/api/alerts',
        { symbol: 'SBIN', exchange: 'BSE', direction: 'below', price: 790 },
        user.token,
      )
    ).body.data!;
    await publishPrices(app, { 'BSE:SBIN': 785 });
    const [item] = (await overview(user)).feed;
    expect(item).to.deep.include({ symbol: 'SBIN', trigger_type: 'PRICE_BELOW', read: false });

    const read = await api.put<{ kind: string; item: ApiRuleExecution }>(
      `/api/alerts/${item!.id}`,
      { read: true },
      user.token,
    );
    expect(read.body.data!.kind).to.equal('feed');
    expect(read.body.data!.item).to.deep.include({ id: item!.id, read: true });
    expect((await overview(user)).unread).to.equal(0);
    const wrongShape = await api.put(`/api/alerts/${item!.id}`, { price: 5 }, user.token);
    expect(wrongShape.status).to.equal(400);
    expect(wrongShape.body.error).to.equal(
      'This alert can only be marked read or unread: send {"read": true}.',
    );

    // Still below 790 at 785: re-arming at 788 would fire at once, so it stays triggered.
    const stillCrossed = await api.put(`/api/alerts/${alert.id}`, { price: 788 }, user.token);
    expect(stillCrossed.status).to.equal(400);
    expect(stillCrossed.body.error).to.equal(
      'SBIN is at ₹785.00, already at or below ₹788.00: this alert would fire at once. Choose a price below ₹785.00.',
    );
    const noted = await api.put<{ price_alert: ApiPriceAlert }>(
      `/api/alerts/${alert.id}`,
      { note: 'sell half' },
      user.token,
    );
    expect(noted.body.data!.price_alert).to.deep.include({
      note: 'sell half',
      price: 790,
      status: 'TRIGGERED',
    });

    const rearmed = await api.put<{ kind: string; price_alert: ApiPriceAlert }>(
      `/api/alerts/${alert.id}`,
      { price: 700 },
      user.token,
    );
    expect(rearmed.body.data).to.deep.include({ kind: 'price_alert' });
    expect(rearmed.body.data!.price_alert).to.deep.include({
      price: 700,
      status: 'ACTIVE',
      triggered_at: null,
    });
    expect((await api.put(`/api/alerts/${alert.id}`, { read: true }, user.token)).status).to.equal(400);

    const dismissed = await api.delete(`/api/alerts/${item!.id}`, user.token);
    expect(dismissed.body.data).to.deep.equal({ id: item!.id, kind: 'feed', deleted: true });
    expect((await overview(user)).feed).to.deep.equal([]);
    const history = await api.get<ApiRuleExecution[]>('/api/alerts/history', user.token);
    expect(history.body.data!.map((e) => e.id)).to.deep.equal([item!.id]);

    const removed = await api.delete(`/api/alerts/${alert.id}`, user.token);
    expect(removed.body.data).to.deep.equal({ id: alert.id, kind: 'price_alert', deleted: true });
    expect((await overview(user)).price_alerts).to.deep.equal([]);
    expect((await api.delete(`/api/alerts/${alert.id}`, user.token)).status).to.equal(404);
  });

  it("404 for another user's price alerts and feed items, and for malformed ids", async () => {
    const owner = await users.make();
    const intruder = await users.make();
    const alert = (
      await api.post<ApiPriceAlert>(
        '/api/alerts',
        { symbol: 'TCS', direction: 'above', price: 9000 },
        owner.token,
      )
    ).body.data!;
    const execution = await seedExecution(owner, 1);
    for (const id of [alert.id, execution]) {
      expect((await api.put(`/api/alerts/${id}`, { read: true, price: 1 }, intruder.token)).status).to.equal(
        404,
      );
      expect((await api.delete(`/api/alerts/${id}`, intruder.token)).status).to.equal(404);
    }
    expect((await api.put('/api/alerts/42', { read: true }, owner.token)).status).to.equal(404);
    expect((await overview(intruder)).feed).to.deep.equal([]);
    expect((await api.get('/api/alerts')).status).to.equal(401);
    const marked = await api.post<{ updated: number }>('/api/alerts/read-all', {}, owner.token);
    expect(marked.body.data).to.deep.equal({ updated: 1 });
  });

  it('answers the quota: Basic 5 a month', async () => {
    const user = await users.make();
    await seedExecution(user, 0);
    const res = await api.get<ApiAlertQuota>('/api/alerts/quota', user.token);
    expect(res.body.data).to.deep.include({ used: 1, total: 5, remaining: 4, subscription_tier: 'basic' });
    expect(Date.parse(res.body.data!.resets_at)).to.be.greaterThan(Date.now());
  });

  it('lists executions newest first with a total, by date window and page; history by days', async () => {
    const user = await users.make();
    const ids = [
      await seedExecution(user, 1, 'A1'),
      await seedExecution(user, 2, 'A2'),
      await seedExecution(user, 3, 'A3'),
    ];
    await seedExecution(user, 40, 'OLD');
    const page = async (query: string) =>
      (await api.get<ApiExecutionsPage>(`/api/rule-executions${query}`, user.token)).body.data!;
    const first = await page('?limit=2');
    expect(first.total).to.equal(3);
    expect(first.executions.map((e) => e.id)).to.deep.equal(ids.slice(0, 2));
    expect(first.executions[0]).to.have.keys([
      'id',
      'symbol',
      'exchange',
      'trigger_type',
      'status',
      'execution_type',
      'trigger_price',
      'execution_price',
      'message',
      'executed_at',
      'rule_id',
      'price_alert_id',
      'over_quota',
      'notice_id',
      'error_message',
      'account_id',
      'quantity_executed',
      'broker_order_id',
      'rule_name',
      'read',
      'deliveries',
    ]);
    expect(first.executions[0]!.deliveries, 'no outbox rows: told in the app only').to.deep.equal([]);
    expect((await page('?limit=2&offset=2')).executions.map((e) => e.id)).to.deep.equal([ids[2]]);
    const since = new Date(Date.now() - 90 * 86_400_000).toISOString();
    expect((await page(`?start_date=${since}`)).total).to.equal(4);
    const window = await page(
      `?start_date=${new Date(Date.now() - 2.5 * 86_400_000).toISOString()}&end_date=${new Date(Date.now() - 1.5 * 86_400_000).toISOString()}`,
    );
    expect(window.executions.map((e) => e.symbol)).to.deep.equal(['A2']);
    const bad = await api.get('/api/rule-executions?start_date=yesterday', user.token);
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.equal('start_date must be a date (ISO 8601)');
    const history = async (days: number) =>
      (await api.get<ApiRuleExecution[]>(`/api/alerts/history?days=${days}`, user.token)).body.data!.length;
    expect([await history(30), await history(90)]).to.deep.equal([3, 4]);
  });
});
