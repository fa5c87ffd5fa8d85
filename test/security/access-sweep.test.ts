/**
 * Access control, generated from the router's own route list: every route without a token
 * answers 401 (public ones excepted), and user B presenting user A's ids gets 404 and never
 * sees A's data. A new route that this sweep cannot place fails the suite.
 */
import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import { ruleExecutions } from '../../server/src/db/schema.ts';
import { bootApp, type TestApp } from '../helpers/app.ts';
import { apiClient, request } from '../helpers/http.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { listApiRoutes, type RouteEntry } from './route-list.ts';

/** Routes anyone may call. */
const PUBLIC = new Set([
  'GET /api/health',
  'GET /api/test-db',
  'GET /api/ready',
  'GET /api/auth/config',
  'POST /api/auth/google',
  'POST /api/auth/login',
  'POST /api/auth/register',
  'POST /api/auth/refresh',
  'POST /api/auth/logout',
  'POST /api/events',
  'GET /api/notification-endpoints/verify',
  // The link's token is its authority (an HMAC of the address): test/server/endpoints/unsubscribe.
  'GET /api/notification-endpoints/unsubscribe',
  'POST /api/notification-endpoints/unsubscribe',
  'GET /api/dev/outbox',
  // Telegram's secret header is its authority (401 without it): test/server/telegram/linking.
  'POST /api/telegram/webhook',
  'GET /api/market/calendar',
  'GET /api/market/status',
  // Meta's webhook: the verify token and the body's signature are its authority (test/server/whatsapp).
  'GET /api/whatsapp/webhook',
  'POST /api/whatsapp/webhook',
  // The broker sends the browser back without the app's token: the single-use state names the
  // user, and a missing, forged or used one redirects to Settings with a sentence, touching
  // nothing (test/server/brokers/connect.test.ts).
  'GET /api/brokers/callback/:broker',
]);

/** Routes whose parameters name market data, not a user's records. */
const MARKET_DATA = new Set([
  'GET /api/symbols/details/:exchange/:symbol',
  'GET /api/market/chart/:exchange/:symbol',
]);

interface OwnedIds {
  holding: string;
  account: string;
  endpoint: string;
  rule?: string;
  priceAlert?: string;
  execution: string;
}

/** Which of A's ids each parameterised path takes. Add new routes here. */
function idFor(route: RouteEntry, ids: OwnedIds): string | undefined | null {
  const p = route.path;
  if (p.startsWith('/api/holdings/')) return ids.holding;
  if (p.startsWith('/api/brokers/')) return ids.account;
  if (p.startsWith('/api/notification-endpoints/')) return ids.endpoint;
  if (p.startsWith('/api/position-rules/')) return ids.rule ?? null;
  if (p.startsWith('/api/alerts/'))
    return route.method === 'PUT' || route.method === 'DELETE' ? ids.execution : null;
  if (p.startsWith('/api/rule-executions/')) return ids.execution;
  return undefined;
}

/** A body that passes validation (unknown keys are dropped), so ownership is what is tested. */
const VALID_BODY = {
  quantity: 1,
  average_price: 1,
  read: true,
  is_active: true,
  price: 100,
  direction: 'above',
};

describe('security: access-control sweep over every API route', function () {
  this.timeout(60_000);
  let app: TestApp;
  let alice: SignedInUser;
  let bob: SignedInUser;
  let ids: OwnedIds;
  let routes: RouteEntry[];

  before(async () => {
    app = await bootApp();
    const api = apiClient(app.url);
    alice = await signIn(app);
    bob = await signIn(app);
    const holding = await api.post<{ id: string }>(
      '/api/holdings/manual',
      { symbol: 'TCS', exchange: 'NSE', quantity: 3, average_price: 3000 },
      alice.token,
    );
    const accounts = await api.get<{ broker_account_id: string }[]>('/api/brokers', alice.token);
    const endpoint = await api.post<{ id: string }>(
      '/api/notification-endpoints',
      { type: 'email', value: `second-${alice.email}` },
      alice.token,
    );
    const [execution] = await app.runtime.deps.db
      .insert(ruleExecutions)
      .values({
        userId: alice.id,
        symbol: 'TCS',
        exchange: 'NSE',
        triggerType: 'FIXED_STOP_LOSS',
        status: 'SUCCESS',
        triggerPrice: '2900',
        executionPrice: '2899',
        message: 'TCS fell to ₹2,899.00',
      })
      .returning({ id: ruleExecutions.id });
    await app.runtime.deps.db.execute(
      sql`insert into quotes (exchange, symbol, ltp, prev_close, as_of) values ('NSE', 'TCS', 3100, 3090, now())
          on conflict (exchange, symbol) do update set ltp = excluded.ltp`,
    );
    const rule = await api.post<{ id: string }>(
      '/api/position-rules',
      {
        symbol: 'TCS',
        exchange: 'NSE',
        rule_scope: 'all_holdings',
        trigger_type: 'FIXED_STOP_LOSS',
        trigger_value: 5,
      },
      alice.token,
    );
    const priceAlert = await api.post<{ id: string }>(
      '/api/alerts',
      { symbol: 'INFY', exchange: 'NSE', direction: 'above', price: 5000 },
      alice.token,
    );
    if (!rule.body.data || !priceAlert.body.data)
      throw new Error(`setup failed: ${rule.body.error} ${priceAlert.body.error}`);
    ids = {
      rule: rule.body.data.id,
      priceAlert: priceAlert.body.data.id,
      holding: holding.body.data!.id,
      account: accounts.body.data![0]!.broker_account_id,
      endpoint: endpoint.body.data!.id,
      execution: execution!.id,
    };
    routes = listApiRoutes(app.runtime);
  });
  after(() => app.close());

  const fill = (route: RouteEntry, id: string) =>
    route.path
      .replace(/:exchange/g, 'NSE')
      .replace(/:symbol/g, 'TCS')
      .replace(/:[a-zA-Z_]+/g, id);

  it('lists the routes of every resource', () => {
    const prefixes = new Set(routes.map((r) => r.path.split('/')[2]));
    for (const resource of [
      'auth',
      'holdings',
      'brokers',
      'symbols',
      'notification-endpoints',
      'push',
      'position-rules',
      'alerts',
      'rule-executions',
      'corporate-actions',
      'users',
    ]) {
      expect(prefixes, resource).to.include(resource);
    }
  });

  it('answers 401 without a token on every non-public route', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      if (PUBLIC.has(key)) continue;
      const res = await request(
        app.url,
        route.method,
        fill(route, ids.holding),
        route.method === 'GET' ? undefined : {},
      );
      if (res.status !== 401) failures.push(`${key} → ${res.status}`);
    }
    expect(failures).to.deep.equal([]);
  });

  it("gives user B a 404 and none of A's data for A's ids, on every route", async () => {
    const failures: string[] = [];
    const secrets = [
      ids.holding,
      ids.account,
      ids.endpoint,
      ids.execution,
      ids.rule!,
      ids.priceAlert!,
      alice.email,
    ];
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      if (PUBLIC.has(key) || key === 'POST /api/auth/logout-all') continue;
      const hasParams = route.path.includes(':');
      let path = route.path;
      if (hasParams && !MARKET_DATA.has(key)) {
        const id = idFor(route, ids);
        if (id === undefined) {
          failures.push(`${key}: not in the sweep — say which of A's ids it takes in idFor()`);
          continue;
        }
        if (id === null) continue;
        const tries = route.path.startsWith('/api/alerts/') ? [id, ids.priceAlert!] : [id];
        for (const each of tries) {
          path = fill(route, each);
          const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : VALID_BODY;
          const res = await request(app.url, route.method, path, body, { token: bob.token });
          if (res.status !== 404) failures.push(`${key} with A's id → ${res.status}`);
        }
      } else {
        path = fill(route, ids.holding);
        if (route.method !== 'GET') continue; // B's own writes are not A's data
        const res = await request(app.url, 'GET', path, undefined, { token: bob.token });
        const text = JSON.stringify(res.body);
        for (const secret of secrets) if (text.includes(secret)) failures.push(`${key} leaks ${secret}`);
      }
    }
    expect(failures).to.deep.equal([]);
    // A still has everything.
    const api = apiClient(app.url);
    expect(
      (await api.get<{ id: string }[]>('/api/holdings', alice.token)).body.data!.map((h) => h.id),
    ).to.include(ids.holding);
  });
});
