import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { notificationEndpoints, users } from '../../../server/src/db/schema.ts';
import { appSuite, type TestApp } from '../../helpers/app.ts';
import { request } from '../../helpers/http.ts';
import { signIn } from '../../helpers/users.ts';

interface SessionBody {
  token: string;
  refresh_token: string;
  user: { id: string; email: string; name: string };
}

const login = (app: TestApp, body: unknown) =>
  request<SessionBody>(app.url, 'POST', '/api/auth/login', body, {
    headers: { 'x-forwarded-for': randomUUID() },
  });

describe('auth: demo sign-in', () => {
  const { app } = appSuite({ env: { DEMO_MODE: 'true' } });

  it('signs in with email and name, returning token, refresh token and user', async () => {
    const email = `demo-${randomUUID().slice(0, 8)}@example.com`;
    const res = await login(app, { email, name: 'Asha Rao' });
    expect(res.status).to.equal(200);
    expect(res.body.success).to.equal(true);
    expect(Object.keys(res.body.data!).sort()).to.deep.equal(['refresh_token', 'token', 'user']);
    expect(res.body.data!.user).to.include({ email, name: 'Asha Rao', subscription_tier: 'basic' });

    const endpoints = await app.runtime.deps.db
      .select()
      .from(notificationEndpoints)
      .where(eq(notificationEndpoints.userId, res.body.data!.user.id));
    expect(endpoints.map((e) => [e.type, e.value, e.verificationStatus])).to.deep.equal([
      ['email', email, 'verified'],
    ]);
  });

  it('signs the same email in as the same user, whatever its case', async () => {
    const local = `Mixed.Case.${randomUUID().slice(0, 8)}`;
    const first = await login(app, { email: `${local}@Example.COM`, name: 'First' });
    const second = await login(app, { email: `${local.toLowerCase()}@example.com`, name: 'Second' });
    expect(first.status).to.equal(200);
    expect(second.status).to.equal(200);
    expect(second.body.data!.user.id).to.equal(first.body.data!.user.id);
    expect(second.body.data!.user.email).to.equal(`${local.toLowerCase()}@example.com`);
    expect(second.body.data!.user.name).to.equal('Second');
    const endpoints = await app.runtime.deps.db
      .select()
      .from(notificationEndpoints)
      .where(eq(notificationEndpoints.userId, first.body.data!.user.id));
    expect(endpoints).to.have.length(1);
  });

  it('refuses an invalid email with a sentence, creating nobody', async () => {
    const before = await app.runtime.deps.db.$count(users);
    for (const email of ['not-an-email', '', 'a@b', '@example.com']) {
      const res = await login(app, { email, name: 'Nobody' });
      expect(res.status, email).to.equal(400);
      expect(res.body).to.deep.equal({ success: false, error: 'Please enter a valid email address' });
    }
    expect(await app.runtime.deps.db.$count(users)).to.equal(before);
  });

  it('refuses a missing name', async () => {
    const res = await login(app, { email: `x-${randomUUID().slice(0, 8)}@example.com`, name: '   ' });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ success: false, error: 'Please enter your name' });
  });

  it('answers GET /api/auth/profile with the user as data', async () => {
    const user = await signIn(app, { name: 'Profile Owner' });
    const res = await request(app.url, 'GET', '/api/auth/profile', undefined, { token: user.token });
    expect(res.status).to.equal(200);
    expect(res.body.success).to.equal(true);
    expect(res.body.data).to.include({
      id: user.id,
      email: user.email,
      name: 'Profile Owner',
      subscription_tier: 'basic',
    });
    expect(Object.keys(res.body.data as object).sort()).to.deep.equal([
      'created_at',
      'email',
      'id',
      'name',
      'picture',
      'subscription_tier',
    ]);
  });

  it('answers POST /api/auth/register with 405 and a sentence pointing to Google', async () => {
    const res = await request(app.url, 'POST', '/api/auth/register', {
      email: 'someone@example.com',
      password: 'hunter22',
    });
    expect(res.status).to.equal(405);
    expect(res.body.success).to.equal(false);
    expect(res.body.error)
      .to.match(/Google/)
      .and.match(/\.$/);
  });
});

describe('auth: demo sign-in switched off', () => {
  const { app } = appSuite({
    env: { DEMO_MODE: 'false', GOOGLE_CLIENT_ID: 'portfolio-guard-test.apps.googleusercontent.com' },
  });

  it('answers 404 and creates no user', async () => {
    const email = `off-${randomUUID().slice(0, 8)}@example.com`;
    const res = await login(app, { email, name: 'Intruder' });
    expect(res.status).to.equal(404);
    expect(res.body.success).to.equal(false);
    expect(res.body.data).to.equal(undefined);
    expect(await app.runtime.deps.db.select().from(users).where(eq(users.email, email))).to.have.length(0);
  });

  it('reports demo mode off in /api/auth/config', async () => {
    const res = await request(app.url, 'GET', '/api/auth/config');
    expect(res.body.data).to.deep.equal({
      demoMode: false,
      googleClientId: 'portfolio-guard-test.apps.googleusercontent.com',
    });
  });
});

describe('auth: a public demo in production (DEMO_MODE_PUBLIC_OK=true)', () => {
  const { app } = appSuite({
    env: { NODE_ENV: 'production', DEMO_MODE: 'true', DEMO_MODE_PUBLIC_OK: 'true' },
  });

  it('signs in, but the typed address is not a verified endpoint until its link is clicked', async () => {
    const email = `public-${randomUUID().slice(0, 8)}@example.com`;
    const res = await login(app, { email, name: 'Visitor' });
    expect(res.status).to.equal(200);
    const endpoints = await app.runtime.deps.db
      .select()
      .from(notificationEndpoints)
      .where(eq(notificationEndpoints.userId, res.body.data!.user.id));
    expect(endpoints.map((e) => [e.type, e.value, e.verificationStatus])).to.deep.equal([
      ['email', email, 'pending'],
    ]);
  });

  it('has no dev outbox: GET /api/dev/outbox is 404, signed in or not', async () => {
    const user = await signIn(app);
    expect((await request(app.url, 'GET', '/api/dev/outbox')).status).to.equal(404);
    expect(
      (await request(app.url, 'GET', '/api/dev/outbox', undefined, { token: user.token })).status,
    ).to.equal(404);
  });
});
