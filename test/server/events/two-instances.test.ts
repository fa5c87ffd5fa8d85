/**
 * The change feed between two instances on one database and one Redis (a private redis-server,
 * restarted here): a change committed on A reaches B's cache and B's sockets through the feed
 * alone, and a Redis restart, which loses messages, makes B resync and tell its tabs to refetch.
 */
import { expect } from 'chai';
import { bootApp, type TestApp } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import { testServices } from '../../helpers/root-hooks.ts';
import { startRedisServer, type RedisServer } from '../../helpers/services.ts';
import { connected, connectSocket, type TestSocket } from '../../helpers/sockets.ts';
import { signIn } from '../../helpers/users.ts';
import { waitFor } from '../../helpers/wait.ts';

describe('change feed: two instances, one database, one Redis', function () {
  this.timeout(60_000);
  let redis: RedisServer;
  let a: TestApp;
  let b: TestApp;
  const sockets: TestSocket[] = [];
  before(async () => {
    redis = await startRedisServer();
    const env = { REDIS_URL: redis.url };
    a = await bootApp({ env, embeddedStreamer: false });
    // Its own pool on PostgreSQL, as a second server would have; PGlite can only be shared.
    b = await bootApp({
      env,
      embeddedStreamer: false,
      database: testServices().databaseUrl ? undefined : a.runtime.deps.database,
    });
  });
  after(async () => {
    for (const s of sockets) s.close();
    await b.close();
    await a.close();
    await redis.stop();
  });

  async function socketOn(app: TestApp, token: string): Promise<TestSocket> {
    const socket = connectSocket(app.url, token);
    sockets.push(socket);
    await connected(socket);
    return socket;
  }

  it("a holdings change on A drops B's cached list and reaches B's sockets", async () => {
    const user = await signIn(a);
    const [viaA, viaB] = [apiClient(a.url), apiClient(b.url)];
    const onB = await socketOn(b, user.token);
    expect((await viaB.get<unknown[]>('/api/holdings', user.token)).body.data).to.deep.equal([]);
    const pushed = new Promise<void>((resolve) => onB.once('holdings:changed', () => resolve()));
    const added = await viaA.post(
      '/api/holdings/manual',
      { symbol: 'TCS', exchange: 'NSE', quantity: 3, average_price: 3000 },
      user.token,
    );
    expect(added.status).to.equal(201);
    await pushed;
    // Within the cache's 5 s: B's list was dropped by the feed, not by its lifetime.
    const listed = await viaB.get<Array<{ symbol: string }>>('/api/holdings', user.token);
    expect(listed.body.data!.map((h) => h.symbol)).to.deep.equal(['TCS']);
  });

  it('a Redis restart makes B resync: its tabs are told to refetch, and changes flow again', async () => {
    const user = await signIn(a);
    const onB = await socketOn(b, user.token);
    const resynced = new Promise<void>((resolve) => onB.once('resync', () => resolve()));
    await redis.stop();
    await redis.start();
    await resynced;
    // Both instances are subscribed again: a change on A reaches B's socket.
    await waitFor(
      'a change on A to reach B after the restart',
      async () => {
        const pushed = new Promise<boolean>((resolve) => {
          onB.once('rules:changed', () => resolve(true));
          setTimeout(() => resolve(false), 1_000);
        });
        const res = await apiClient(a.url).post(
          '/api/alerts',
          { symbol: 'INFY', exchange: 'NSE', direction: 'above', price: 99_999 },
          user.token,
        );
        expect(res.status, res.body.error).to.be.oneOf([200, 201]);
        return (await pushed) || undefined;
      },
      20_000,
    );
  });
});
