import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { eq, sql } from 'drizzle-orm';
import { hashToken } from '../../../server/src/auth/refresh-tokens.ts';
import { refreshTokens } from '../../../server/src/db/schema.ts';
import { appSuite } from '../../helpers/app.ts';
import { request } from '../../helpers/http.ts';
import { signIn } from '../../helpers/users.ts';

interface Pair {
  access_token: string;
  refresh_token: string;
}

describe('auth: refresh tokens', () => {
  const { app } = appSuite();

  // Each call from its own address, so the refresh rate limit never interferes.
  const refresh = (refreshToken: string) =>
    request<Pair>(
      app.url,
      'POST',
      '/api/auth/refresh',
      { refresh_token: refreshToken },
      { headers: { 'x-forwarded-for': randomUUID() } },
    );

  const profileStatus = async (token: string) =>
    (await request(app.url, 'GET', '/api/auth/profile', undefined, { token })).status;

  /** Simulates time passing since `raw` was rotated. */
  const rotatedSecondsAgo = (raw: string, seconds: number) =>
    app.runtime.deps.db
      .update(refreshTokens)
      .set({ rotatedAt: sql`now() - make_interval(secs => ${seconds})` })
      .where(eq(refreshTokens.tokenHash, hashToken(raw)));

  function expectSignedOut(res: Awaited<ReturnType<typeof refresh>>) {
    expect(res.status).to.equal(401);
    expect(res.body.success).to.equal(false);
    expect(res.body.data).to.equal(undefined);
  }

  it('rotates: a new pair, the new refresh token works, the old access token still works', async () => {
    const user = await signIn(app);
    const first = await refresh(user.refreshToken);
    expect(first.status).to.equal(200);
    expect(first.body.success).to.equal(true);
    expect(Object.keys(first.body.data!).sort()).to.deep.equal(['access_token', 'refresh_token']);
    const pair = first.body.data!;
    expect(pair.refresh_token).to.not.equal(user.refreshToken);

    expect(await profileStatus(pair.access_token)).to.equal(200);
    expect(await profileStatus(user.token)).to.equal(200);
    const second = await refresh(pair.refresh_token);
    expect(second.status).to.equal(200);
    expect(await profileStatus(second.body.data!.access_token)).to.equal(200);
  });

  it('stores only a hash of the refresh token', async () => {
    const user = await signIn(app);
    const rows = await app.runtime.deps.db
      .select({ tokenHash: refreshTokens.tokenHash })
      .from(refreshTokens)
      .where(eq(refreshTokens.userId, user.id));
    expect(rows).to.have.length(1);
    expect(rows[0]!.tokenHash).to.not.include(user.refreshToken);
    expect(rows[0]!.tokenHash).to.equal(hashToken(user.refreshToken));
  });

  it('revokes the whole family when a rotated token is reused after the grace window', async () => {
    const user = await signIn(app);
    const otherSession = await signIn(app, { email: user.email });
    expect(otherSession.id).to.equal(user.id);

    const rotated = await refresh(user.refreshToken);
    expect(rotated.status).to.equal(200);
    const newest = rotated.body.data!.refresh_token;
    await rotatedSecondsAgo(user.refreshToken, 11);

    expectSignedOut(await refresh(user.refreshToken));
    expectSignedOut(await refresh(newest));
    // Another session of the same user is another family: still signed in.
    expect((await refresh(otherSession.refreshToken)).status).to.equal(200);
  });

  it('accepts a rotated token again just inside the grace window', async () => {
    const user = await signIn(app);
    const rotated = await refresh(user.refreshToken);
    expect(rotated.status).to.equal(200);
    await rotatedSecondsAgo(user.refreshToken, 8);

    const again = await refresh(user.refreshToken);
    expect(again.status).to.equal(200);
    expect(again.body.data!.refresh_token).to.not.equal(rotated.body.data!.refresh_token);
    expect((await refresh(rotated.body.data!.refresh_token)).status).to.equal(200);
    expect((await refresh(again.body.data!.refresh_token)).status).to.equal(200);
  });

  it('lets two concurrent refreshes with the same token both succeed, and both results work', async () => {
    const user = await signIn(app);
    const [a, b] = await Promise.all([refresh(user.refreshToken), refresh(user.refreshToken)]);
    expect([a.status, b.status]).to.deep.equal([200, 200]);
    const tokens = [a.body.data!, b.body.data!];
    expect(tokens[0]!.refresh_token).to.not.equal(tokens[1]!.refresh_token);
    for (const pair of tokens) {
      expect(await profileStatus(pair.access_token)).to.equal(200);
      expect((await refresh(pair.refresh_token)).status).to.equal(200);
    }
  });

  it('gives one sibling inside the grace window; a further reuse is theft and ends the family', async () => {
    const user = await signIn(app);
    const results = await Promise.all(Array.from({ length: 10 }, () => refresh(user.refreshToken)));
    // The rotation and one sibling (two tabs at one moment); the other eight are a thief's.
    expect(results.filter((r) => r.status === 200)).to.have.length.at.most(2);
    const issued = results.filter((r) => r.status === 200).map((r) => r.body.data!);
    for (const pair of issued) expectSignedOut(await refresh(pair.refresh_token));
    expectSignedOut(await refresh(user.refreshToken));
  });

  it('ends the family when a rotated token is used a third time inside the grace window', async () => {
    const user = await signIn(app);
    const first = await refresh(user.refreshToken);
    const sibling = await refresh(user.refreshToken);
    expect([first.status, sibling.status]).to.deep.equal([200, 200]);
    expectSignedOut(await refresh(user.refreshToken));
    expectSignedOut(await refresh(first.body.data!.refresh_token));
    expectSignedOut(await refresh(sibling.body.data!.refresh_token));
  });

  it('refuses an unknown, an expired or a malformed refresh token', async () => {
    expectSignedOut(await refresh(randomUUID() + randomUUID()));

    const user = await signIn(app);
    await app.runtime.deps.db
      .update(refreshTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(refreshTokens.tokenHash, hashToken(user.refreshToken)));
    expectSignedOut(await refresh(user.refreshToken));

    const missing = await request(app.url, 'POST', '/api/auth/refresh', {});
    expect(missing.status).to.equal(400);
    expect(missing.body).to.deep.equal({ success: false, error: 'refresh_token is required' });
  });

  it('does not accept an access token as a refresh token, nor the reverse', async () => {
    const user = await signIn(app);
    const asRefresh = await request(
      app.url,
      'POST',
      '/api/auth/refresh',
      { refresh_token: user.token.slice(0, 200) },
      { headers: { 'x-forwarded-for': randomUUID() } },
    );
    expect(asRefresh.status).to.be.oneOf([400, 401]);
    expect(await profileStatus(user.refreshToken)).to.equal(401);
  });
});
