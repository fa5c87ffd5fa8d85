import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { users } from '../../../server/src/db/schema.ts';
import { appSuite } from '../../helpers/app.ts';
import { request } from '../../helpers/http.ts';
import { signIn } from '../../helpers/users.ts';

describe('auth: logout', () => {
  const { app } = appSuite();

  const post = <T = unknown>(path: string, body: unknown, token?: string) =>
    request<T>(app.url, 'POST', path, body, { token, headers: { 'x-forwarded-for': randomUUID() } });
  const refresh = (refreshToken: string) =>
    post<{ access_token: string; refresh_token: string }>('/api/auth/refresh', {
      refresh_token: refreshToken,
    });
  const profileStatus = async (token: string) =>
    (await request(app.url, 'GET', '/api/auth/profile', undefined, { token })).status;

  it("revokes this session's whole refresh family, and only it", async () => {
    const user = await signIn(app);
    const otherSession = await signIn(app, { email: user.email });
    const rotated = await refresh(user.refreshToken);
    expect(rotated.status).to.equal(200);
    const current = rotated.body.data!.refresh_token;

    const res = await post('/api/auth/logout', { refresh_token: current }, rotated.body.data!.access_token);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, data: { signed_out: true } });

    expect((await refresh(current)).status).to.equal(401);
    // The token it replaced would still be inside the reuse grace window: the family is gone.
    expect((await refresh(user.refreshToken)).status).to.equal(401);
    expect((await refresh(otherSession.refreshToken)).status).to.equal(200);
  });

  it('answers 200 for an unknown refresh token or none, changing nothing', async () => {
    const user = await signIn(app);
    expect((await post('/api/auth/logout', { refresh_token: randomUUID() + randomUUID() })).status).to.equal(
      200,
    );
    expect((await post('/api/auth/logout', {})).status).to.equal(200);
    expect((await refresh(user.refreshToken)).status).to.equal(200);
  });

  it('logout-all: older access tokens fail at once, every session is revoked, a new sign-in works', async () => {
    const user = await signIn(app);
    const laptop = await signIn(app, { email: user.email });
    const phone = await signIn(app, { email: user.email });
    const rotated = await refresh(phone.refreshToken);
    expect(rotated.status).to.equal(200);
    const bystander = await signIn(app);
    const [before] = await app.runtime.deps.db.select().from(users).where(eq(users.id, user.id));

    const res = await post('/api/auth/logout-all', {}, laptop.token);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, data: { signed_out: true } });

    for (const token of [user.token, laptop.token, phone.token, rotated.body.data!.access_token]) {
      expect(await profileStatus(token)).to.equal(401);
    }
    for (const refreshToken of [
      user.refreshToken,
      laptop.refreshToken,
      phone.refreshToken,
      rotated.body.data!.refresh_token,
    ]) {
      expect((await refresh(refreshToken)).status).to.equal(401);
    }
    const [after] = await app.runtime.deps.db.select().from(users).where(eq(users.id, user.id));
    expect(after!.tokenVersion).to.equal(before!.tokenVersion + 1);

    expect(await profileStatus(bystander.token)).to.equal(200);
    expect((await refresh(bystander.refreshToken)).status).to.equal(200);

    const again = await signIn(app, { email: user.email });
    expect(again.id).to.equal(user.id);
    expect(await profileStatus(again.token)).to.equal(200);
    expect((await refresh(again.refreshToken)).status).to.equal(200);
  });

  it('logout-all needs a signed-in user', async () => {
    const user = await signIn(app);
    const res = await post('/api/auth/logout-all', {});
    expect(res.status).to.equal(401);
    expect(res.body.success).to.equal(false);
    expect(await profileStatus(user.token)).to.equal(200);
  });
});
