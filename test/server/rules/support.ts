/** Shared steps of the rules and alerts tests: prices by hand, holdings, rules, clean-up. */
import type { ApiPositionRule, ApiRuleExecution } from '@app/common/api/rules';
import type { Exchange } from '@app/common/instruments/types';
import type { Quote, TickBatch } from '@app/common/market/tick-batch';
import { and, eq, inArray } from 'drizzle-orm';
import { retryOnDeadlock } from '../../../server/src/db/deadlock.ts';
import { quotes, users } from '../../../server/src/db/schema.ts';
import { appSuite, bootApp, type BootOptions, type SuiteOptions, type TestApp } from '../../helpers/app.ts';
import { apiClient, type ApiResponse } from '../../helpers/http.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { madeBefore } from '../../helpers/made-before.ts';
import { waitFor } from '../../helpers/wait.ts';

let sequence = 0;

/**
 * A tick batch of `prices` (symbol → ltp, NSE unless `BSE:SYMBOL`), as the streamer publishes it,
 * with each instrument's previous close from `prevCloses` when given.
 */
export function tickBatch(
  prices: Record<string, number>,
  prevCloses: Record<string, number> = {},
): TickBatch {
  const at = Date.now() + sequence++;
  const quotes: Quote[] = Object.entries(prices).map(([key, ltp]) => {
    const [exchange, symbol] = key.includes(':') ? (key.split(':') as [Exchange, string]) : ['NSE', key];
    return {
      symbol,
      exchange: exchange as Exchange,
      ltp,
      prevClose: prevCloses[key] ?? null,
      change: null,
      changePercent: null,
      asOf: at,
      delayMinutes: 0,
    };
  });
  return { v: 1, id: `test-${at}`, at, source: 'test', quotes };
}

/** Publishes a batch on the app's (in-process) bus and waits until the pipeline handled it. */
export async function publishPrices(
  app: TestApp,
  prices: Record<string, number>,
  prevCloses: Record<string, number> = {},
): Promise<void> {
  const batch = tickBatch(prices, prevCloses);
  // Over Redis the batch comes back a moment after the publish: idle() only once it is here (the
  // pipeline's own handler, subscribed first, has queued it by then).
  let arrived: () => void = () => undefined;
  const here = new Promise<void>((resolve) => (arrived = resolve));
  const unsubscribe = app.runtime.bus.onBatch((b) => {
    if (b.id === batch.id) arrived();
  });
  const giveUp = setTimeout(arrived, 10_000);
  try {
    await app.runtime.bus.publishBatch(batch);
    await here;
  } finally {
    clearTimeout(giveUp);
    unsubscribe();
  }
  await app.runtime.pipeline.idle();
}

/** Removes an instrument's latest quote (the run's PostgreSQL database is shared by every test). */
export async function forgetQuote(app: TestApp, symbol: string, exchange: Exchange = 'NSE'): Promise<void> {
  await app.runtime.deps.db
    .delete(quotes)
    .where(and(eq(quotes.symbol, symbol), eq(quotes.exchange, exchange)));
}

/** Whether `app`'s database holds a latest quote of `symbol` at `ltp` (the batch owner stored it). */
export async function quoteStored(app: TestApp, symbol: string, ltp: number): Promise<true | undefined> {
  const [row] = await app.runtime.deps.db
    .select({ ltp: quotes.ltp })
    .from(quotes)
    .where(and(eq(quotes.symbol, symbol), eq(quotes.exchange, 'NSE')));
  return Number(row?.ltp) === ltp ? true : undefined;
}

export async function addHolding(
  app: TestApp,
  user: SignedInUser,
  symbol: string,
  quantity = 10,
  averagePrice = 1000,
  exchange: Exchange = 'NSE',
): Promise<void> {
  const res = await apiClient(app.url).post(
    '/api/holdings/manual',
    { symbol, exchange, quantity, average_price: averagePrice },
    user.token,
  );
  if (res.status !== 201) throw new Error(`add holding ${symbol}: ${res.status} ${res.body.error}`);
}

export function createRule(
  app: TestApp,
  user: SignedInUser,
  body: Record<string, unknown>,
): Promise<ApiResponse<ApiPositionRule>> {
  return apiClient(app.url).post<ApiPositionRule>('/api/position-rules', body, user.token);
}

export async function listRules(app: TestApp, user: SignedInUser): Promise<ApiPositionRule[]> {
  const res = await apiClient(app.url).get<ApiPositionRule[]>('/api/position-rules', user.token);
  if (res.status !== 200) throw new Error(`list rules: ${res.status} ${res.body.error}`);
  return res.body.data!;
}

export async function listExecutions(app: TestApp, user: SignedInUser): Promise<ApiRuleExecution[]> {
  const res = await apiClient(app.url).get<{ executions: ApiRuleExecution[]; total: number }>(
    '/api/rule-executions?limit=200',
    user.token,
  );
  if (res.status !== 200) throw new Error(`executions: ${res.status} ${res.body.error}`);
  return res.body.data!.executions;
}

/** Arms a 5% stop on `symbol` at 1000 for `user` and crosses it (900): one execution to deliver. */
export async function crossStop(app: TestApp, user: SignedInUser, symbol: string): Promise<void> {
  await publishPrices(app, { [symbol]: 1000 });
  await addHolding(app, user, symbol);
  const rule = await createRule(app, user, { symbol, trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 });
  if (rule.status !== 201) throw new Error(`rule on ${symbol}: ${rule.status} ${rule.body.error}`);
  await publishPrices(app, { [symbol]: 900 });
}

/** The user's first execution once its delivery has settled (no longer PENDING). */
export function settledExecution(
  app: TestApp,
  user: SignedInUser,
  timeoutMs = 10_000,
): Promise<ApiRuleExecution> {
  return waitFor(
    'the execution to settle',
    async () => {
      const [execution] = await listExecutions(app, user);
      return execution && execution.status !== 'PENDING' ? execution : undefined;
    },
    timeoutMs,
  );
}

/**
 * Deletes the test's users (their rules, alerts, executions and outbox rows go with them), so
 * nothing they armed fires in a later test sharing the run's PostgreSQL database.
 */
export async function forgetUsers(app: TestApp, people: SignedInUser[]): Promise<void> {
  if (people.length === 0) return;
  // The app is still running: a job of its own may hold one of their rows (see deadlock.ts).
  const ids = people.map((p) => p.id);
  await retryOnDeadlock(() => app.runtime.deps.db.delete(users).where(inArray(users.id, ids)));
}

/** Signs in fresh users and remembers them for `forget()` in an `after` hook. */
export function userFactory(app: () => TestApp) {
  const people: SignedInUser[] = [];
  return {
    async make(tier?: 'basic' | 'advanced'): Promise<SignedInUser> {
      const { signIn } = await import('../../helpers/users.ts');
      const user = await signIn(app(), tier ? { tier } : {});
      people.push(user);
      return user;
    },
    forget: () => forgetUsers(app(), people.splice(0)),
  };
}

/**
 * The opening of a rules test suite, called in its `describe`: one app whose prices come only
 * from the test (no embedded streamer, unless `options` say otherwise), booted before the tests
 * and closed after them, and the users the tests make, forgotten after them (after `cleanUp`).
 */
export function rulesSuite(options: SuiteOptions = {}, cleanUp?: () => Promise<void>) {
  const users = userFactory(() => app);
  const boot = () => ({ embeddedStreamer: false, ...(typeof options === 'function' ? options() : options) });
  const { app, api } = appSuite(boot, async () => {
    await cleanUp?.();
    await users.forget();
  });
  return { app, api, users };
}

/**
 * Two server instances on one database and the run's Redis (bus, claims, socket adapter), as in
 * production behind a load balancer; prices come only from the test. Called in a `describe`:
 * booted before its tests, closed after them with the users they made forgotten.
 */
export function twoInstancesSuite(options: BootOptions = {}) {
  let pair: [TestApp, TestApp] | undefined;
  const instance = (i: 0 | 1) => madeBefore('the two instances', () => pair?.[i]);
  const a = instance(0);
  const b = instance(1);
  const users = userFactory(() => a);
  before(async () => {
    const first = await bootApp({ withRedis: true, embeddedStreamer: false, ...options });
    const second = await bootApp({
      withRedis: true,
      embeddedStreamer: false,
      ...options,
      database: first.runtime.deps.database,
    });
    pair = [first, second];
  });
  after(async () => {
    if (!pair) return;
    await users.forget();
    await pair[1].close();
    await pair[0].close();
  });
  return { a, b, users };
}
