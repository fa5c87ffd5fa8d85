import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { AUTH_ROUTER_LIMIT } from '../../../server/src/routes/auth/router.ts';
import { appSuite, bootApp, type TestApp } from '../../helpers/app.ts';
import { request } from '../../helpers/http.ts';

const SIGN_IN_LIMIT = 20;
const REFRESH_LIMIT = 60;

const fromAddress = (app: TestApp, address: string, path: string, body: unknown) =>
  request(app.url, 'POST', path, body, { headers: { 'x-forwarded-for': address } });

const demoLogin = (app: TestApp, address: string) =>
  fromAddress(app, address, '/api/auth/login', {
    email: `rl-${randomUUID().slice(0, 8)}@example.com`,
    name: 'Rate Limited',
  });

function expectTooMany(res: Awaited<ReturnType<typeof request>>) {
  expect(res.status).to.equal(429);
  expect(res.body.success).to.equal(false);
  expect(res.body.error).to.be.a('string').and.not.equal('');
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).to.be.at.least(1).and.at.most(60);
}

describe('auth: rate limits', () => {
  const { app } = appSuite();

  it('answers 429 with Retry-After past the sign-in limit; another address is unaffected', async () => {
    const address = `203.0.113.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < SIGN_IN_LIMIT; i++) {
      expect((await demoLogin(app, address)).status, `attempt ${i + 1}`).to.equal(200);
    }
    expectTooMany(await demoLogin(app, address));
    // Google sign-in shares the limit; bad input still counts.
    expectTooMany(await fromAddress(app, address, '/api/auth/google', { credential: 'x'.repeat(20) }));
    expect((await demoLogin(app, '192.0.2.7')).status).to.equal(200);
  });

  it('cannot be dodged by prepending made-up addresses to X-Forwarded-For', async () => {
    // The trusted proxy appends the address it saw; anything before it came from the client.
    const address = `198.51.100.${Math.floor(Math.random() * 250)}`;
    const spoofed = () => demoLogin(app, `${randomUUID()}, ${address}`);
    for (let i = 0; i < SIGN_IN_LIMIT; i++) expect((await spoofed()).status).to.equal(200);
    expectTooMany(await spoofed());
    expectTooMany(await demoLogin(app, address));
  });

  it('counts failed attempts too', async () => {
    const address = randomUUID();
    for (let i = 0; i < SIGN_IN_LIMIT; i++) {
      const res = await fromAddress(app, address, '/api/auth/login', { email: 'nope', name: 'x' });
      expect(res.status).to.equal(400);
    }
    expectTooMany(await demoLogin(app, address));
  });

  it('limits refresh attempts per address', async () => {
    const address = randomUUID();
    const guess = () => fromAddress(app, address, '/api/auth/refresh', { refresh_token: randomUUID() });
    for (let i = 0; i < REFRESH_LIMIT; i++) expect((await guess()).status).to.equal(401);
    expectTooMany(await guess());
    const other = await fromAddress(app, randomUUID(), '/api/auth/refresh', { refresh_token: randomUUID() });
    expect(other.status).to.equal(401);
  });

  it('limits every /auth route per address: a flood of logouts ends in 429', async () => {
    const address = randomUUID();
    const logout = (from: string) => fromAddress(app, from, '/api/auth/logout', {});
    for (let i = 0; i < AUTH_ROUTER_LIMIT; i++) {
      expect((await logout(address)).status, `logout ${i + 1}`).to.equal(200);
    }
    expectTooMany(await logout(address));
    const config = await request(app.url, 'GET', '/api/auth/config', undefined, {
      headers: { 'x-forwarded-for': address },
    });
    expectTooMany(config);
    expect((await logout(randomUUID())).status).to.equal(200);
  });
});

describe('auth: rate limits shared through Redis', () => {
  let first: TestApp;
  let second: TestApp;
  before(async () => {
    first = await bootApp({ withRedis: true });
    second = await bootApp({ withRedis: true });
  });
  after(async () => {
    await first.close();
    await second.close();
  });

  it('counts attempts against one instance on every instance', async () => {
    const address = randomUUID();
    for (let i = 0; i < SIGN_IN_LIMIT; i++) {
      expect((await demoLogin(i % 2 ? first : second, address)).status).to.equal(200);
    }
    expectTooMany(await demoLogin(first, address));
    expectTooMany(await demoLogin(second, address));
    expect((await demoLogin(second, randomUUID())).status).to.equal(200);
  });
});
