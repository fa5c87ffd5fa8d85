import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { appSuite, TEST_JWT_SECRET } from '../../helpers/app.ts';
import { request } from '../../helpers/http.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import { AUDIENCE, b64, decodePayload, ISSUER, signAsServer } from '../../security/support/tokens.ts';

describe('auth: access tokens', () => {
  const { app } = appSuite();
  let user: SignedInUser;
  beforeEach(async () => {
    user = await signIn(app);
  });

  const profile = (authorization?: string) =>
    request<{ id: string }>(app.url, 'GET', '/api/auth/profile', undefined, {
      headers: authorization === undefined ? {} : { authorization },
    });

  async function expectRefused(authorization: string | undefined) {
    const res = await profile(authorization);
    expect(res.status).to.equal(401);
    expect(res.body.success).to.equal(false);
    expect(res.body.error).to.be.a('string').and.not.equal('');
    expect(res.body.data).to.equal(undefined);
  }

  it('issues an HS256 token for 15 minutes with issuer, audience and token version', async () => {
    const [header] = user.token.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).to.include({ alg: 'HS256' });
    const claims = decodePayload(user.token);
    expect(claims).to.include({ sub: user.id, iss: ISSUER, aud: AUDIENCE, tv: 0 });
    expect((claims.exp as number) - (claims.iat as number)).to.equal(15 * 60);

    const res = await profile(`Bearer ${user.token}`);
    expect(res.status).to.equal(200);
    expect(res.body.data?.id).to.equal(user.id);
  });

  it('names its session (the sign-in), kept by refreshes; another sign-in is another session', async () => {
    const sid = decodePayload(user.token).sid as string;
    expect(sid).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const refreshed = await request<{ access_token: string }>(app.url, 'POST', '/api/auth/refresh', {
      refresh_token: user.refreshToken,
    });
    expect(refreshed.status).to.equal(200);
    expect(decodePayload(refreshed.body.data!.access_token).sid).to.equal(sid);
    const again = await signIn(app, { email: user.email });
    expect(again.id).to.equal(user.id);
    expect(decodePayload(again.token).sid).to.be.a('string').and.not.equal(sid);
  });

  it('refuses a token without a session, or naming a session that is not the user’s', async () => {
    const noSession = signAsServer(user, { sid: undefined });
    expect(decodePayload(noSession)).to.not.have.property('sid');
    await expectRefused(`Bearer ${noSession}`);
    await expectRefused(`Bearer ${signAsServer(user, { sid: randomUUID() })}`);
    const other = await signIn(app);
    await expectRefused(`Bearer ${signAsServer(user, { sid: decodePayload(other.token).sid as string })}`);
    await expectRefused(`Bearer ${signAsServer(user, { sid: 'not-a-uuid' })}`);
  });

  it('accepts a token made with the server secret and the right claims (control for the forgeries)', async () => {
    const res = await profile(`Bearer ${signAsServer(user)}`);
    expect(res.status).to.equal(200);
    expect(res.body.data?.id).to.equal(user.id);
  });

  it('refuses a missing or malformed bearer', async () => {
    await expectRefused(undefined);
    await expectRefused('');
    await expectRefused(user.token);
    await expectRefused(`Basic ${user.token}`);
    await expectRefused('Bearer ');
    await expectRefused('Bearer not.a.jwt');
  });

  it('refuses alg none', async () => {
    const payload = decodePayload(user.token);
    await expectRefused(`Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`);
    await expectRefused(`Bearer ${b64({ alg: 'none' })}.${b64(payload)}.`);
  });

  it('refuses a token signed with another secret', async () => {
    const other = jwt.sign(
      { tv: 0, sid: decodePayload(user.token).sid },
      'another-secret-that-is-at-least-32-characters',
      {
        algorithm: 'HS256',
        expiresIn: 900,
        issuer: ISSUER,
        audience: AUDIENCE,
        subject: user.id,
      },
    );
    await expectRefused(`Bearer ${other}`);
  });

  it('refuses an RS256 token (no HS/RS algorithm confusion)', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rs = jwt.sign({ tv: 0, sid: decodePayload(user.token).sid }, privateKey, {
      algorithm: 'RS256',
      expiresIn: 900,
      issuer: ISSUER,
      audience: AUDIENCE,
      subject: user.id,
    });
    await expectRefused(`Bearer ${rs}`);
    await expectRefused(`Bearer ${signAsServer(user, {}, { algorithm: 'HS512' })}`);
  });

  it('refuses a wrong audience, a wrong issuer, or no token version', async () => {
    await expectRefused(`Bearer ${signAsServer(user, {}, { audience: 'another-api' })}`);
    await expectRefused(`Bearer ${signAsServer(user, {}, { issuer: 'someone-else' })}`);
    const noVersion = jwt.sign({ sid: decodePayload(user.token).sid }, TEST_JWT_SECRET, {
      algorithm: 'HS256',
      expiresIn: 900,
      issuer: ISSUER,
      audience: AUDIENCE,
      subject: user.id,
    });
    await expectRefused(`Bearer ${noVersion}`);
  });

  it('refuses an expired token with a sentence asking to sign in again', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = signAsServer(user, { iat: now - 1000, exp: now - 1 });
    const res = await profile(`Bearer ${expired}`);
    expect(res.status).to.equal(401);
    expect(res.body.error).to.match(/sign in again/i);
  });

  it('refuses a correctly signed token without an expiry', async () => {
    const now = Math.floor(Date.now() / 1000);
    const noExpiry = jwt.sign({ tv: 0, sid: decodePayload(user.token).sid, iat: now }, TEST_JWT_SECRET, {
      algorithm: 'HS256',
      issuer: ISSUER,
      audience: AUDIENCE,
      subject: user.id,
    });
    expect(decodePayload(noExpiry)).to.not.have.property('exp');
    await expectRefused(`Bearer ${noExpiry}`);
  });

  it('refuses a token issued in the future, beyond 30 seconds of clock skew', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectRefused(`Bearer ${signAsServer(user, { iat: now + 3600, exp: now + 4500 })}`);
    await expectRefused(`Bearer ${signAsServer(user, { iat: now + 60, exp: now + 900 })}`);
    const noIssueTime = signAsServer(user, {}, { noTimestamp: true });
    expect(decodePayload(noIssueTime)).to.not.have.property('iat');
    await expectRefused(`Bearer ${noIssueTime}`);
    // Another instance's clock a few seconds ahead: still accepted.
    const res = await profile(`Bearer ${signAsServer(user, { iat: now + 10, exp: now + 900 })}`);
    expect(res.status).to.equal(200);
  });

  it('refuses (401, not a server error) a signed token whose subject is not a UUID', async () => {
    for (const subject of ['not-a-uuid', "1' or '1'='1", user.id.toUpperCase().replace(/-/g, '')]) {
      await expectRefused(`Bearer ${signAsServer(user, {}, { subject })}`);
    }
  });

  it('refuses a token whose payload was changed to another user', async () => {
    const victim = await signIn(app);
    const [header, , signature] = user.token.split('.');
    const tampered = `${header}.${b64({ ...decodePayload(user.token), sub: victim.id })}.${signature}`;
    await expectRefused(`Bearer ${tampered}`);
    const bumped = `${header}.${b64({ ...decodePayload(user.token), exp: 4_102_444_800 })}.${signature}`;
    await expectRefused(`Bearer ${bumped}`);
  });

  it('refuses a valid signature for a user that does not exist', async () => {
    await expectRefused(
      `Bearer ${signAsServer(user, {}, { subject: '00000000-0000-4000-8000-000000000000' })}`,
    );
  });

  it('answers GET /api/auth/verify with the user, and 401 without a token', async () => {
    const ok = await request<{ user: { id: string; email: string } }>(
      app.url,
      'GET',
      '/api/auth/verify',
      undefined,
      { token: user.token },
    );
    expect(ok.status).to.equal(200);
    expect(ok.body.success).to.equal(true);
    expect(ok.body.data?.user).to.include({ id: user.id, email: user.email });
    const anonymous = await request(app.url, 'GET', '/api/auth/verify');
    expect(anonymous.status).to.equal(401);
    expect(anonymous.body.success).to.equal(false);
  });
});
