import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { notificationEndpoints, users } from '../../../server/src/db/schema.ts';
import { appSuite, bootApp, type TestApp } from '../../helpers/app.ts';
import { foreignPrivateKey, startFakeGoogle, type FakeGoogle } from '../../helpers/google.ts';
import { request } from '../../helpers/http.ts';

interface SessionBody {
  token: string;
  refresh_token: string;
  user: { id: string; email: string; name: string };
}

describe('auth: Google sign-in', () => {
  let google: FakeGoogle;
  let app: TestApp;
  before(async () => {
    google = await startFakeGoogle();
    app = await bootApp({
      env: { GOOGLE_CLIENT_ID: google.clientId, DEMO_MODE: 'true' },
      googleCertsUrl: google.certsUrl,
    });
  });
  after(async () => {
    await app.close();
    await google.close();
  });

  const signInWithGoogle = (credential: string) =>
    request<SessionBody>(
      app.url,
      'POST',
      '/api/auth/google',
      { credential },
      { headers: { 'x-forwarded-for': randomUUID() } },
    );

  const usersWithSub = (sub: string) =>
    app.runtime.deps.db.select().from(users).where(eq(users.googleSub, sub));

  const newSub = () => String(Date.now()) + String(Math.floor(Math.random() * 1e9));

  async function expectRejected(credential: string, sub: string) {
    const res = await signInWithGoogle(credential);
    expect(res.status).to.equal(401);
    expect(res.body.success).to.equal(false);
    expect(res.body.error)
      .to.be.a('string')
      .and.match(/Google sign-in failed/);
    expect(res.body.data).to.equal(undefined);
    expect(await usersWithSub(sub)).to.have.length(0);
  }

  it('signs in with a valid ID token, creating the user with a verified email endpoint', async () => {
    const sub = newSub();
    const email = `priya.${sub}@gmail.com`;
    const res = await signInWithGoogle(google.signIdToken({ sub, email, name: 'Priya Sharma' }));
    expect(res.status).to.equal(200);
    expect(res.body.success).to.equal(true);
    const data = res.body.data!;
    expect(data.token).to.be.a('string').and.not.equal('');
    expect(data.refresh_token).to.be.a('string').and.not.equal('');
    expect(data.user).to.include({ email, name: 'Priya Sharma' });

    const [row] = await usersWithSub(sub);
    expect(row?.id).to.equal(data.user.id);
    const endpoints = await app.runtime.deps.db
      .select()
      .from(notificationEndpoints)
      .where(eq(notificationEndpoints.userId, data.user.id));
    expect(endpoints).to.have.length(1);
    expect(endpoints[0]).to.include({ type: 'email', value: email, verificationStatus: 'verified' });
    expect(endpoints[0]!.verifiedAt).to.be.instanceOf(Date);

    const profile = await request<{ id: string }>(app.url, 'GET', '/api/auth/profile', undefined, {
      token: data.token,
    });
    expect(profile.status).to.equal(200);
    expect(profile.body.data?.id).to.equal(data.user.id);
  });

  it('keys the user by sub: signing in again updates the name and keeps one email endpoint', async () => {
    const sub = newSub();
    const first = await signInWithGoogle(google.signIdToken({ sub, name: 'Old Name' }));
    expect(first.status).to.equal(200);
    const again = await signInWithGoogle(google.signIdToken({ sub, name: 'New Name' }));
    expect(again.status).to.equal(200);
    expect(again.body.data!.user.id).to.equal(first.body.data!.user.id);
    expect(again.body.data!.user.name).to.equal('New Name');

    const rows = await usersWithSub(sub);
    expect(rows).to.have.length(1);
    expect(rows[0]!.name).to.equal('New Name');
    const endpoints = await app.runtime.deps.db
      .select()
      .from(notificationEndpoints)
      .where(eq(notificationEndpoints.userId, rows[0]!.id));
    expect(endpoints).to.have.length(1);
  });

  it('does not merge a different sub that claims the same email', async () => {
    const email = `shared.${newSub()}@gmail.com`;
    const a = await signInWithGoogle(google.signIdToken({ sub: newSub(), email }));
    const b = await signInWithGoogle(google.signIdToken({ sub: newSub(), email }));
    expect(a.status).to.equal(200);
    expect(b.status).to.equal(200);
    expect(b.body.data!.user.id).to.not.equal(a.body.data!.user.id);
  });

  it('refuses a token issued for another audience and creates no user', async () => {
    const sub = newSub();
    await expectRejected(google.signIdToken({ sub, aud: 'someone-else.apps.googleusercontent.com' }), sub);
  });

  it('refuses an unverified email and creates no user', async () => {
    const sub = newSub();
    const res = await signInWithGoogle(google.signIdToken({ sub, email_verified: false }));
    expect(res.status).to.equal(401);
    expect(res.body.error).to.match(/not verified/);
    expect(await usersWithSub(sub)).to.have.length(0);
  });

  it('refuses an expired token', async () => {
    const sub = newSub();
    const now = Math.floor(Date.now() / 1000);
    // Beyond the library's five-minute clock-skew allowance.
    await expectRejected(google.signIdToken({ sub, iat: now - 7200, exp: now - 3600 }), sub);
  });

  it('refuses a token from another issuer', async () => {
    const sub = newSub();
    await expectRejected(google.signIdToken({ sub, iss: 'https://accounts.example.com' }), sub);
  });

  it('refuses a token signed with another key under the served key id', async () => {
    const sub = newSub();
    await expectRejected(google.signIdToken({ sub }, { privateKey: foreignPrivateKey() }), sub);
  });

  it('refuses a token whose key id is not among the certificates', async () => {
    const sub = newSub();
    await expectRejected(google.signIdToken({ sub }, { kid: 'unknown-kid' }), sub);
  });

  it('refuses alg none and HS256 keyed with the public certificate', async () => {
    const none = newSub();
    await expectRejected(google.signIdToken({ sub: none }, { alg: 'none' }), none);
    const confused = newSub();
    await expectRejected(google.signIdToken({ sub: confused }, { alg: 'HS256' }), confused);
  });

  it('refuses a payload altered after signing', async () => {
    const sub = newSub();
    const [header, , signature] = google.signIdToken({ sub: newSub() }).split('.');
    const forged = google.signIdToken({ sub }).split('.')[1];
    await expectRejected(`${header}.${forged}.${signature}`, sub);
  });

  it('answers 400 without a credential', async () => {
    const res = await request(app.url, 'POST', '/api/auth/google', {}, {});
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ success: false, error: 'credential is required' });
  });

  it("answers 503, not 401, when Google's certificates cannot be fetched", async () => {
    const down = await startFakeGoogle();
    const certsUrl = down.certsUrl;
    const credential = down.signIdToken();
    await down.close();
    const offline = await bootApp({ env: { GOOGLE_CLIENT_ID: down.clientId }, googleCertsUrl: certsUrl });
    try {
      const res = await request(offline.url, 'POST', '/api/auth/google', { credential });
      expect(res.status).to.equal(503);
      expect(res.body.success).to.equal(false);
      expect(res.headers.get('retry-after')).to.equal('5');
    } finally {
      await offline.close();
    }
  });
});

describe('auth: Google sign-in not configured', () => {
  const { app } = appSuite({ env: { DEMO_MODE: 'true' } });

  it('answers 404 on /api/auth/google and reports no client id', async () => {
    const google = await startFakeGoogle();
    try {
      const res = await request(app.url, 'POST', '/api/auth/google', { credential: google.signIdToken() });
      expect(res.status).to.equal(404);
      expect(res.body.success).to.equal(false);
      expect(google.certRequests()).to.equal(0);
    } finally {
      await google.close();
    }
    const config = await request<{ googleClientId: string | null; demoMode: boolean }>(
      app.url,
      'GET',
      '/api/auth/config',
    );
    expect(config.body.data).to.deep.equal({ googleClientId: null, demoMode: true });
  });
});
