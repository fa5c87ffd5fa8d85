import { expect } from 'chai';
import {
  HoldingsCache,
  HOLDINGS_CACHE_MAX_ROWS,
  HOLDINGS_CACHE_TTL_MS,
} from '../../../server/src/holdings/cache.ts';
import type { Executor } from '../../../server/src/db/client.ts';
import { bootApp, type TestApp } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import { testServices } from '../../helpers/root-hooks.ts';
import { signIn } from '../../helpers/users.ts';
import { tickBatch } from '../rules/support.ts';
import { waitFor } from '../../helpers/wait.ts';

type Listed = { id: string; symbol: string; quantity: number; current_price: number | null };

describe('holdings: each instance caches the list, and another instance’s changes reach it', () => {
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    a = await bootApp({ withRedis: true, embeddedStreamer: false });
    // On PostgreSQL the second instance has its own pool (and cache), as a second server would;
    // PGlite can only be shared, and with it the cache.
    b = await bootApp({
      withRedis: true,
      embeddedStreamer: false,
      database: testServices().databaseUrl ? undefined : a.runtime.deps.database,
    });
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  const symbol = () => `ZC${Math.random().toString(36).slice(2, 8).toUpperCase()}`;

  it('lists a change made through the other instance, and the prices of the latest batch', async () => {
    const user = await signIn(a);
    const [viaA, viaB] = [apiClient(a.url), apiClient(b.url)];
    const s = symbol();
    const added = await viaA.post<{ id: string }>(
      '/api/holdings/manual',
      { symbol: s, exchange: 'NSE', quantity: 5, average_price: 100 },
      user.token,
    );
    expect(added.status).to.equal(201);
    const first = await viaB.get<Listed[]>('/api/holdings', user.token);
    expect(first.body.data!.map((h) => [h.symbol, h.quantity])).to.deep.equal([[s, 5]]);

    expect(
      (await viaA.put(`/api/holdings/${added.body.data!.id}`, { quantity: 7 }, user.token)).status,
    ).to.equal(200);
    expect((await viaA.get<Listed[]>('/api/holdings', user.token)).body.data![0]!.quantity).to.equal(7);
    await waitFor('instance B to list the new quantity', async () => {
      const listed = await viaB.get<Listed[]>('/api/holdings', user.token);
      return listed.body.data![0]!.quantity === 7 || undefined;
    });

    // Prices come from the batch as it arrives, without waiting for the list to expire.
    await a.runtime.bus.publishBatch(tickBatch({ [s]: 123.45 }));
    for (const app of [a, b])
      await waitFor(
        'the batch price in the list',
        async () => {
          const listed = await apiClient(app.url).get<Listed[]>('/api/holdings', user.token);
          return listed.body.data![0]!.current_price === 123.45 || undefined;
          // Well within the cache's lifetime: the price comes from the batch, not a reload.
        },
        HOLDINGS_CACHE_TTL_MS / 2,
      );
  });

  it('logout-all on one instance kills the older access tokens on the other at once', async () => {
    const user = await signIn(a);
    const [viaA, viaB] = [apiClient(a.url), apiClient(b.url)];
    // Both instances have just checked (and may keep) the user's session.
    expect((await viaA.get('/api/auth/profile', user.token)).status).to.equal(200);
    expect((await viaB.get('/api/auth/profile', user.token)).status).to.equal(200);
    expect((await viaA.post('/api/auth/logout-all', {}, user.token)).status).to.equal(200);
    expect((await viaB.get('/api/auth/profile', user.token)).status).to.equal(401);
    expect((await viaA.get('/api/auth/profile', user.token)).status).to.equal(401);
    const again = await signIn(b, { email: user.email });
    expect((await viaA.get('/api/auth/profile', again.token)).status).to.equal(200);
    expect((await viaB.get('/api/auth/profile', again.token)).status).to.equal(200);
  });
});

describe('holdings: the cache itself', () => {
  /** A database whose holdings query answers when the test says, with `rows` holdings. */
  function fakeDb() {
    const pending: Array<(rows: number) => void> = [];
    let queries = 0;
    const db = {
      execute: () => {
        queries += 1;
        return new Promise((resolve) =>
          pending.push((n) =>
            resolve({
              rows: Array.from({ length: n }, (_, i) => ({
                id: `h${i}`,
                symbol: `S${i}`,
                exchange: 'NSE',
                isin: null,
                quantity: '1',
                average_price: '10',
                broker_account_id: 'acc',
                updated_at: '2026-01-01T00:00:00.000Z',
                broker_name: 'Manual',
                broker_type: 'USER_ADDED',
                account_label: '',
                ltp: null,
                prev_close: null,
                as_of: null,
                company_name: null,
              })),
            }),
          ),
        );
      },
    } as unknown as Executor;
    return { db, answer: (n = 1) => pending.shift()!(n), queries: () => queries };
  }
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('shares one load between concurrent misses, and keeps nothing loaded before a change', async () => {
    const { db, answer, queries } = fakeDb();
    const cache = new HoldingsCache(db);
    const both = Promise.all([cache.list('u'), cache.list('u')]);
    await tick();
    expect(queries()).to.equal(1);
    cache.invalidate('u');
    answer(2);
    const [x, y] = await both;
    expect([x.length, y.length]).to.deep.equal([2, 2]);
    // Loaded before the change: not kept; the next list loads again.
    const next = cache.list('u');
    await tick();
    expect(queries()).to.equal(2);
    answer(3);
    expect((await next).length).to.equal(3);
    expect((await cache.list('u')).length).to.equal(3);
    expect(queries()).to.equal(2);
  });

  it('encodes the list once per batch, and again with the next batch’s prices', async () => {
    const { db, answer } = fakeDb();
    const cache = new HoldingsCache(db);
    let encodings = 0;
    const encode = (list: unknown) => {
      encodings += 1;
      return Buffer.from(JSON.stringify(list));
    };
    const decoded = async () =>
      JSON.parse((await cache.listEncoded('u', encode)).toString()) as Array<{
        symbol: string;
        current_price: number;
      }>;
    const first = decoded();
    await tick();
    answer(2);
    expect(await first).to.deep.equal(await cache.list('u'));
    await decoded();
    expect(encodings).to.equal(1);
    cache.noteBatch(tickBatch({ S1: 42.5 }));
    const priced = await decoded();
    expect(encodings).to.equal(2);
    expect(priced.find((h) => h.symbol === 'S1')?.current_price).to.equal(42.5);
    expect(priced).to.deep.equal(await cache.list('u'));
  });

  it('expires entries, and drops the least recently listed users beyond its size', async () => {
    let now = 0;
    const { db, answer, queries } = fakeDb();
    const cache = new HoldingsCache(db, () => now);
    const load = async (user: string, rows: number) => {
      const listing = cache.list(user);
      await tick();
      answer(rows);
      return listing;
    };
    await load('u', 1);
    now += 10_000;
    await load('u', 1);
    expect(queries()).to.equal(2);
    const half = Math.ceil(HOLDINGS_CACHE_MAX_ROWS / 2);
    await load('big1', half);
    await load('big2', half);
    expect(cache.stats().rows).to.be.at.most(HOLDINGS_CACHE_MAX_ROWS);
    expect(cache.stats().users).to.equal(2);
  });
});
