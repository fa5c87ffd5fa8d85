/** Shared steps of the export and deletion tests: a user with one of everything, and counting it. */
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../server/src/db/client.ts';
import { ruleExecutions } from '../../../server/src/db/schema.ts';
import type { TestApp } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import type { SignedInUser } from '../../helpers/users.ts';

/** The ids of what `seedEverything` made. */
export interface Seeded {
  holding: string;
  rule: string;
  priceAlert: string;
  endpoint: string;
  execution: string;
}

/**
 * Gives `user` a manual holding, a rule on it, a price alert, a second alert address, a History
 * row and a page view, through the API where there is one.
 */
export async function seedEverything(app: TestApp, user: SignedInUser, symbol = 'TCS'): Promise<Seeded> {
  const api = apiClient(app.url);
  const db = app.runtime.deps.db;
  await db.execute(
    sql`insert into quotes (exchange, symbol, ltp, prev_close, as_of) values ('NSE', ${symbol}, 3100, 3090, now())
        on conflict (exchange, symbol) do update set ltp = excluded.ltp, as_of = excluded.as_of`,
  );
  const holding = await api.post<{ id: string }>(
    '/api/holdings/manual',
    { symbol, exchange: 'NSE', quantity: 3, average_price: 3000 },
    user.token,
  );
  const rule = await api.post<{ id: string }>(
    '/api/position-rules',
    {
      symbol,
      exchange: 'NSE',
      rule_scope: 'all_holdings',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
    },
    user.token,
  );
  const priceAlert = await api.post<{ id: string }>(
    '/api/alerts',
    { symbol: 'INFY', exchange: 'NSE', direction: 'above', price: 99_000 },
    user.token,
  );
  const endpoint = await api.post<{ id: string }>(
    '/api/notification-endpoints',
    { type: 'email', value: `second-${user.email}` },
    user.token,
  );
  await api.post('/api/events', { path: '/holdings' }, user.token);
  const [execution] = await db
    .insert(ruleExecutions)
    .values({
      userId: user.id,
      symbol,
      exchange: 'NSE',
      triggerType: 'FIXED_STOP_LOSS',
      status: 'SUCCESS',
      triggerPrice: '2900',
      executionPrice: '2899',
      message: `${symbol} fell to ₹2,899.00`,
    })
    .returning({ id: ruleExecutions.id });
  for (const [what, res] of Object.entries({ holding, rule, priceAlert, endpoint }))
    if (!res.body.data) throw new Error(`seeding ${what} failed: ${res.status} ${res.body.error}`);
  return {
    holding: holding.body.data!.id,
    rule: rule.body.data!.id,
    priceAlert: priceAlert.body.data!.id,
    endpoint: endpoint.body.data!.id,
    execution: execution!.id,
  };
}

/** Tables that hold a user's rows, by `user_id`. */
const OWNED_TABLES = [
  'users',
  'refresh_tokens',
  'notification_endpoints',
  'broker_accounts',
  'holdings',
  'position_rules',
  'price_alerts',
  'rule_executions',
  'page_events',
] as const;

/** How many rows of each table belong to `userId` (`users`: the user row itself). */
export async function ownedCounts(app: TestApp, userId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of OWNED_TABLES) {
    const column = table === 'users' ? 'id' : 'user_id';
    const [row] = await queryRows<{ n: number }>(
      app.runtime.deps.db,
      sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(column)} = ${userId}`,
    );
    counts[table] = row!.n;
  }
  return counts;
}
