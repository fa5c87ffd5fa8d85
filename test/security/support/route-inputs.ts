/**
 * Requests for the fuzz suite: a valid body per write route (the fuzz changes one part of it, so
 * a hostile value gets past the checks that come before it), the user's own rows behind `:id`,
 * and a snapshot of everything the user owns, to see that a refused request wrote nothing.
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { queryRows } from '../../../server/src/db/client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import type { RouteEntry } from '../route-list.ts';
import { controlText, hostileNumberText, hostileText, hostileValue } from './hostile.ts';

const rule = {
  symbol: 'ITC',
  exchange: 'NSE',
  trigger_type: 'FIXED_STOP_LOSS',
  trigger_value: 5,
  value_type: 'PERCENT',
  rule_name: 'Fuzz',
  sell_quantity_value: 1,
  limit_price: 100,
  priority: 1,
};

/** Bodies that each route accepts as they are. */
const VALID_BODIES: Record<string, Record<string, unknown>> = {
  'POST /api/auth/google': { credential: 'x'.repeat(40) },
  'POST /api/auth/login': { email: 'fuzz-login@example.com', name: 'Fuzz' },
  'POST /api/auth/refresh': { refresh_token: 'x'.repeat(40) },
  'POST /api/auth/logout': { refresh_token: 'x'.repeat(40) },
  'POST /api/events': { path: '/holdings', referrer: '/dashboard' },
  'POST /api/symbols/validate': { symbol: 'ITC', exchange: 'NSE' },
  'POST /api/holdings/upload-csv': {
    csvData: 'Symbol,Quantity,Buy Price\nITC,5,400\n',
    broker_name: 'Fuzz Broker',
    dry_run: false,
    overrides: [{ line: 1, symbol: 'ITC', exchange: 'NSE' }],
  },
  'POST /api/holdings/manual': { symbol: 'TCS', exchange: 'NSE', quantity: 1, average_price: 100 },
  'PUT /api/holdings/:id': { quantity: 5, average_price: 100 },
  'POST /api/notification-endpoints': { type: 'email', value: 'fuzz-endpoint@example.com' },
  'POST /api/position-rules': rule,
  'POST /api/position-rules/bulk': { rules: [rule] },
  'POST /api/position-rules/bulk-action': {
    ids: ['00000000-0000-4000-8000-000000000000'],
    action: 'disable',
  },
  'PUT /api/position-rules/:id': {
    trigger_value: 6,
    rule_name: 'Fuzz',
    sell_quantity_value: 2,
    limit_price: 50,
  },
  'PATCH /api/position-rules/:id': { is_active: true },
  'POST /api/alerts': { symbol: 'ITC', exchange: 'NSE', direction: 'above', price: 99_999, note: 'fuzz' },
  'PUT /api/alerts/:id': { price: 600, direction: 'below', note: 'fuzz', read: true },
  'PUT /api/settings': { protect_new_holdings: true },
};

/** Query parameters the routes read, and a few they do not. */
const QUERY_KEYS = [
  'symbol',
  'symbols',
  'exchange',
  'query',
  'limit',
  'offset',
  'days',
  'start_date',
  'end_date',
  'to',
  'token',
] as const;

/** What one fuzzed request changes in a route's valid input. */
export interface Mutation {
  /** Which leaf of the valid body to replace (modulo their count), and with what. */
  field: { pick: number; value: unknown } | null;
  /** A key with a control character added to the body. */
  key: string | null;
  /** The body replaced whole. */
  whole: unknown;
  /** csvData rows with hostile cells (upload only). */
  csvCells: [string, string, string] | null;
  query: Record<string, string>;
  /** Hostile text instead of the real `:param` value. */
  params: Record<string, string | null>;
}

/** `arbitrary` one time in `every`, `nil` the others. */
function sometimes<T, N>(arbitrary: fc.Arbitrary<T>, every: number, nil: N): fc.Arbitrary<T | N> {
  return fc.oneof({ arbitrary, weight: 1 }, { arbitrary: fc.constant(nil), weight: every - 1 });
}

export const mutation: fc.Arbitrary<Mutation> = fc.record({
  field: sometimes(fc.record({ pick: fc.nat(), value: hostileValue }), 2, null),
  key: sometimes(controlText, 8, null),
  whole: sometimes(hostileValue, 8, undefined),
  csvCells: sometimes(
    fc.tuple(fc.oneof(fc.constant('ITC'), controlText), hostileNumberText, hostileNumberText),
    3,
    null,
  ),
  query: fc.dictionary(
    fc.oneof(fc.constantFrom(...QUERY_KEYS), controlText),
    fc.oneof(hostileText, fc.constantFrom('ITC', 'NSE', '10', '2024-01-01')),
    { maxKeys: 3 },
  ),
  params: fc.record({
    id: sometimes(hostileText, 4, null),
    exchange: sometimes(hostileText, 4, null),
    symbol: sometimes(hostileText, 3, null),
  }),
});

function leafPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([key, child]) =>
    leafPaths(child, [...prefix, Array.isArray(value) ? Number(key) : key]),
  );
}

function setAt(target: unknown, path: (string | number)[], value: unknown): void {
  let at = target as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1)!] = value;
}

/** The body a route gets for `m`: its valid body with one hostile change, or a hostile whole. */
export function fuzzedBody(route: RouteEntry, m: Mutation): unknown {
  if (m.whole !== undefined) return m.whole;
  const body = structuredClone(VALID_BODIES[`${route.method} ${route.path}`] ?? {});
  if (m.csvCells && 'csvData' in body) {
    body.csvData = `Symbol,Quantity,Buy Price\n${m.csvCells.map((c) => `"${c.replace(/"/g, '""')}"`).join(',')}\n`;
  } else if (m.field) {
    const paths = leafPaths(body).filter((p) => p.length > 0);
    if (paths.length > 0) setAt(body, paths[m.field.pick % paths.length]!, m.field.value);
    else body.extra = m.field.value;
  }
  if (m.key) body[m.key] = 'x';
  return body;
}

/** The user's rows behind the routes' `:id`, re-created when a request removed them. */
export interface Seed {
  holding: string;
  account: string;
  rule: string;
  alert: string;
  endpoint: string;
}

/** The path with its `:params` filled: the user's own ids, or hostile text from `m`. */
export function fuzzedPath(route: RouteEntry, m: Mutation, seed: Seed): string {
  const own: Record<string, string> = { exchange: 'NSE', symbol: 'ITC' };
  if (route.path.includes('/holdings/:id')) own.id = seed.holding;
  if (route.path.includes('/brokers/')) own.id = seed.account;
  if (route.path.includes('/position-rules/:id')) own.id = seed.rule;
  if (route.path.includes('/alerts/:id')) own.id = seed.alert;
  if (route.path.includes('/notification-endpoints/:id')) own.id = seed.endpoint;
  const path = route.path.replace(/:([a-z_]+)/gi, (_, name: string) =>
    encodeURIComponent(m.params[name as keyof Mutation['params']] ?? own[name] ?? 'x'),
  );
  const query = new URLSearchParams(m.query).toString();
  return query ? `${path}?${query}` : path;
}

/** Everything the user owns, as one JSON text (one query). */
export async function ownedRows(app: TestApp, userId: string): Promise<string> {
  const table = (name: string) =>
    sql`(select coalesce(json_agg(t order by t.id), '[]'::json) from ${sql.identifier(name)} t where t.user_id = ${userId})`;
  const [row] = await queryRows<{ rows: unknown }>(
    app.runtime.deps.db,
    sql`select json_build_array(${table('holdings')}, ${table('position_rules')}, ${table('price_alerts')},
      ${table('broker_accounts')}, ${table('notification_endpoints')}) as rows`,
  );
  return JSON.stringify(row!.rows);
}

/** Stored amounts that are not positive: what a value below the columns' precision became. */
export async function zeroAmounts(app: TestApp, userId: string): Promise<string[]> {
  const rows = await queryRows<{ what: string }>(
    app.runtime.deps.db,
    sql`select 'holding ' || symbol || ' ' || id as what from holdings
          where user_id = ${userId} and (quantity <= 0 or average_price <= 0)
        union all select 'rule ' || symbol || ' ' || id from position_rules
          where user_id = ${userId} and (trigger_value <= 0 or sell_quantity_value <= 0 or limit_price <= 0)
        union all select 'alert ' || symbol || ' ' || id from price_alerts where user_id = ${userId} and price <= 0`,
  );
  return rows.map((r) => r.what);
}

/** Makes sure the user has a holding, a rule, a price alert and an endpoint for `:id` to name. */
export async function ensureSeed(app: TestApp, user: SignedInUser, seed: Partial<Seed>): Promise<Seed> {
  const api = apiClient(app.url);
  const [ids] = await queryRows<Record<keyof Seed, string | null>>(
    app.runtime.deps.db,
    sql`select
      (select id from holdings where user_id = ${user.id} and symbol = 'ITC' limit 1) as holding,
      (select broker_account_id from holdings where user_id = ${user.id} and symbol = 'ITC' limit 1) as account,
      (select id from position_rules where user_id = ${user.id} limit 1) as rule,
      (select id from price_alerts where user_id = ${user.id} limit 1) as alert,
      (select id from notification_endpoints where user_id = ${user.id} limit 1) as endpoint`,
  );
  const found = {
    ...seed,
    ...Object.fromEntries(Object.entries(ids!).filter(([, v]) => v)),
  } as Partial<Seed>;
  if (!ids!.holding) {
    const manual = { symbol: 'ITC', exchange: 'NSE', quantity: 10, average_price: 400 };
    await api.post('/api/holdings/manual', manual, user.token);
    return ensureSeed(app, user, {});
  }
  // Written directly: the write routes' rate limits are for the fuzz to meet, not the seeding.
  const db = app.runtime.deps.db;
  if (!ids!.rule) {
    const [row] = await queryRows<{ id: string }>(
      db,
      sql`insert into position_rules (user_id, symbol, exchange, rule_name, rule_scope, action_type, trigger_type,
            trigger_value, value_type, reference_price, peak_price, computed_trigger_price)
          values (${user.id}, 'ITC', 'NSE', 'Seed', 'all_holdings', 'ALERT', 'FIXED_STOP_LOSS', 5, 'PERCENT', 400, 400, 380)
          returning id`,
    );
    found.rule = row!.id;
  }
  if (!ids!.alert) {
    const [row] = await queryRows<{ id: string }>(
      db,
      sql`insert into price_alerts (user_id, symbol, exchange, direction, price)
          values (${user.id}, 'ITC', 'NSE', 'above', 500) returning id`,
    );
    found.alert = row!.id;
  }
  if (!ids!.endpoint) {
    const [row] = await queryRows<{ id: string }>(
      db,
      sql`insert into notification_endpoints (user_id, type, value, value_key)
          values (${user.id}, 'email', 'seed@example.com', 'seed@example.com') returning id`,
    );
    found.endpoint = row!.id;
  }
  return found as Seed;
}
