/**
 * GET /api/ready follows Redis: 503 naming what is down while a private redis-server is
 * stopped, 200 again once it is back; /api/health (the process) stays 200 throughout, and the
 * API keeps answering. The watch set the restarted Redis lost is rebuilt on reconnection, not
 * at the next periodic refresh (30 s).
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { bootApp, type TestApp } from '../helpers/app.ts';
import { apiClient } from '../helpers/http.ts';
import { startRedisServer, type RedisServer } from '../helpers/services.ts';
import { signIn } from '../helpers/users.ts';
import { waitFor } from './support/cluster.ts';

describe('reliability: readiness and the watch set across a Redis restart', function () {
  this.timeout(60_000);
  let redis: RedisServer;
  let app: TestApp;

  before(async () => {
    redis = await startRedisServer();
    app = await bootApp({ env: { REDIS_URL: redis.url }, embeddedStreamer: false });
  });
  after(async () => {
    await app?.close();
    await redis?.stop();
  });

  it('answers 503 while Redis is stopped and 200 once it is back', async () => {
    const api = apiClient(app.url);
    const user = await signIn(app);
    const held = await api.post(
      '/api/holdings/manual',
      { symbol: 'TCS', exchange: 'NSE', quantity: 1, average_price: 3000 },
      user.token,
    );
    expect(held.status).to.equal(201);
    const inspect = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    inspect.on('error', () => undefined);
    const watched = () => inspect.smembers('market:watch').catch(() => [] as string[]);
    await waitFor('the watch set', async () => ((await watched()).includes('NSE:TCS') ? true : undefined));
    const ready = await api.get('/api/ready');
    expect(ready.status).to.equal(200);
    expect(ready.body.data).to.deep.equal({ database: true, redis: true });

    await redis.stop();
    const down = await api.get<{ database: boolean; redis: boolean }>('/api/ready');
    expect(down.status).to.equal(503);
    expect(down.body).to.deep.include({ success: false, error: 'Not ready' });
    expect(down.body.data).to.deep.equal({ database: true, redis: false });
    expect((await api.get('/api/health')).status).to.equal(200);
    expect((await api.get('/api/holdings', user.token)).status).to.equal(200);

    await redis.start();
    const back = await waitFor('readiness to return', async () => {
      const res = await api.get('/api/ready');
      return res.status === 200 ? res : undefined;
    });
    expect(back.body.data).to.deep.equal({ database: true, redis: true });
    const rebuilt = await waitFor(
      'the watch set to be rebuilt',
      async () => {
        const members = await watched();
        return members.length > 0 ? members : undefined;
      },
      10_000,
    );
    expect(rebuilt).to.include('NSE:TCS');
    inspect.disconnect();
  });
});
