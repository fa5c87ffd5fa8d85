/**
 * A Redis that hangs (stopped with SIGSTOP: its connections stay open, nothing answers) does not
 * hold up the API: signed-in reads and writes, sign-in and logout are answered, and
 * /api/ready says Redis is not ready, each well within the client's 3 s bound (the API used to
 * wait for as long as Redis hung). Once Redis answers again (SIGCONT), the two instances share
 * their rate limits and sessions through it again.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { SIGN_IN_LIMIT } from '../../server/src/routes/auth/router.ts';
import { bootApp, type TestApp } from '../helpers/app.ts';
import { request, type RequestOptions } from '../helpers/http.ts';
import { startRedisServer, type RedisServer } from '../helpers/services.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { waitFor } from '../helpers/wait.ts';

/** The client gives up after this: a request still unanswered then fails the test. */
const CLIENT_TIMEOUT_MS = 3000;

const call = <T = unknown>(
  app: TestApp,
  method: string,
  path: string,
  body?: unknown,
  opts: RequestOptions = {},
) => request<T>(app.url, method, path, body, { timeoutMs: CLIENT_TIMEOUT_MS, ...opts });

const demoSignIn = (app: TestApp, address: string) =>
  call<{ token: string; refresh_token: string }>(
    app,
    'POST',
    '/api/auth/login',
    { email: `hung-${randomUUID().slice(0, 8)}@example.com`, name: 'Hung Redis' },
    { headers: { 'x-forwarded-for': address } },
  );

describe('reliability: a hung Redis (SIGSTOP) does not hold up the API', function () {
  this.timeout(60_000);
  let redis: RedisServer;
  let a: TestApp;
  let b: TestApp;
  let stopped = false;

  const pause = () => {
    process.kill(redis.pid()!, 'SIGSTOP');
    stopped = true;
  };
  const resume = () => {
    if (stopped) process.kill(redis.pid()!, 'SIGCONT');
    stopped = false;
  };

  before(async () => {
    redis = await startRedisServer();
    a = await bootApp({ env: { REDIS_URL: redis.url }, embeddedStreamer: false });
    b = await bootApp({ env: { REDIS_URL: redis.url }, embeddedStreamer: false });
  });
  after(async () => {
    if (redis) resume();
    await b?.close();
    await a?.close();
    await redis?.stop();
  });

  it('answers reads, writes, sign-in and readiness while Redis hangs; shares limits and sessions again once it answers', async () => {
    const user: SignedInUser = await signIn(a);
    for (const app of [a, b]) expect((await call(app, 'GET', '/api/ready')).status).to.equal(200);

    pause();
    for (const app of [a, b]) {
      const ready = await call<{ database: boolean; redis: boolean }>(app, 'GET', '/api/ready');
      expect(ready.status, 'readiness while Redis hangs').to.equal(503);
      expect(ready.body).to.deep.include({ success: false, error: 'Not ready' });
      expect(ready.body.data).to.deep.equal({ database: true, redis: false });
      for (let i = 0; i < 5; i++) {
        const holdings = await call(app, 'GET', '/api/holdings', undefined, { token: user.token });
        expect(holdings.status, `holdings read ${i + 1}`).to.equal(200);
        const profile = await call(app, 'GET', '/api/auth/profile', undefined, { token: user.token });
        expect(profile.status, `profile read ${i + 1}`).to.equal(200);
      }
      const added = await call(
        app,
        'POST',
        '/api/holdings/manual',
        { symbol: app === a ? 'TCS' : 'INFY', exchange: 'NSE', quantity: 1, average_price: 3000 },
        { token: user.token },
      );
      expect(added.status, `a manual holding: ${added.body.error}`).to.equal(201);
      const signedIn = await demoSignIn(app, randomUUID());
      expect(signedIn.status, `sign-in: ${signedIn.body.error}`).to.equal(200);
      const ended = await call(app, 'POST', '/api/auth/logout', {
        refresh_token: signedIn.body.data!.refresh_token,
      });
      expect(ended.status, `logout: ${ended.body.error}`).to.equal(200);
    }
    const listed = await call<{ symbol: string }[]>(a, 'GET', '/api/holdings', undefined, {
      token: user.token,
    });
    expect(listed.body.data!.map((h) => h.symbol)).to.have.members(['TCS', 'INFY']);

    resume();
    for (const app of [a, b]) {
      const back = await waitFor('readiness once Redis answers', async () => {
        const res = await call<{ database: boolean; redis: boolean }>(app, 'GET', '/api/ready');
        return res.status === 200 ? res : undefined;
      });
      expect(back.body.data).to.deep.equal({ database: true, redis: true });
    }

    // One address spends the sign-in limit across both instances: the next sign-in is refused,
    // which it would not be if each instance still counted on its own.
    const address = randomUUID();
    for (let i = 0; i < SIGN_IN_LIMIT; i++) {
      const res = await demoSignIn(i % 2 === 0 ? a : b, address);
      expect(res.status, `sign-in ${i + 1} of the limit`).to.equal(200);
    }
    expect((await demoSignIn(a, address)).status, 'one past the shared limit').to.equal(429);

    // A logout on one instance is refused on the other at once (the session check asks Redis).
    const session = await demoSignIn(a, randomUUID());
    const token = session.body.data!.token;
    expect((await call(b, 'GET', '/api/auth/profile', undefined, { token })).status).to.equal(200);
    const out = await call(a, 'POST', '/api/auth/logout', {
      refresh_token: session.body.data!.refresh_token,
    });
    expect(out.status).to.equal(200);
    expect((await call(b, 'GET', '/api/auth/profile', undefined, { token })).status).to.equal(401);
  });
});
