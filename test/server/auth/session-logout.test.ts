/**
 * Logout ends one session (one sign-in) everywhere: its access tokens are refused and its
 * sockets closed on every instance, while the same user's other sessions go on. Two instances
 * on one database (each with its own pool on PostgreSQL) and one Redis, as two servers behind a
 * load balancer; then two without Redis, where the per-instance cache's one second bounds it.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { hashToken } from '../../../server/src/auth/refresh-tokens.ts';
import { refreshTokens } from '../../../server/src/db/schema.ts';
import { bootApp, type TestApp } from '../../helpers/app.ts';
import { apiClient, request } from '../../helpers/http.ts';
import { testServices } from '../../helpers/root-hooks.ts';
import { connected, connectSocket, type TestSocket } from '../../helpers/sockets.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import { waitFor } from '../../helpers/wait.ts';

/** A second instance: its own pool on PostgreSQL; PGlite can only be shared. */
const secondInstance = (first: TestApp, withRedis: boolean) =>
  bootApp({
    withRedis,
    embeddedStreamer: false,
    database: testServices().databaseUrl ? undefined : first.runtime.deps.database,
  });

const profileStatus = async (app: TestApp, token: string) =>
  (await apiClient(app.url).get('/api/auth/profile', token)).status;

/** An /auth call from an address of its own (the auth routes limit each address). */
const authPost = <T = unknown>(app: TestApp, path: string, body: unknown) =>
  request<T>(app.url, 'POST', `/api/auth/${path}`, body, { headers: { 'x-forwarded-for': randomUUID() } });

const logout = (app: TestApp, refreshToken: string) =>
  authPost(app, 'logout', { refresh_token: refreshToken });
const refresh = (app: TestApp, refreshToken: string) =>
  authPost<{ access_token: string; refresh_token: string }>(app, 'refresh', { refresh_token: refreshToken });

/** The reason the server gave when it closed the socket. */
const closedBy = (socket: TestSocket) =>
  new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

describe('auth: logout ends that session on every instance (Redis)', function () {
  this.timeout(30_000);
  let a: TestApp;
  let b: TestApp;
  const sockets: TestSocket[] = [];
  before(async () => {
    a = await bootApp({ withRedis: true, embeddedStreamer: false });
    b = await secondInstance(a, true);
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  async function open(app: TestApp, token: string): Promise<TestSocket> {
    const socket = connectSocket(app.url, token);
    sockets.push(socket);
    await connected(socket);
    return socket;
  }

  it("refuses the session's access tokens on both instances at once and closes its sockets there; the user's other session goes on", async () => {
    const laptop = await signIn(a);
    const phone: SignedInUser = await signIn(a, { email: laptop.email });
    expect(phone.id).to.equal(laptop.id);
    // A refreshed access token belongs to the same session as the one it followed.
    const refreshed = await refresh(b, laptop.refreshToken);
    expect(refreshed.status).to.equal(200);
    const laptopTokens = [laptop.token, refreshed.body.data!.access_token];

    // Both instances have just checked (and may keep) both sessions.
    for (const app of [a, b])
      for (const token of [...laptopTokens, phone.token])
        expect(await profileStatus(app, token)).to.equal(200);
    const laptopSockets = [await open(a, laptop.token), await open(b, refreshed.body.data!.access_token)];
    const phoneSockets = [await open(a, phone.token), await open(b, phone.token)];
    const laptopClosed = laptopSockets.map(closedBy);

    const res = await logout(a, refreshed.body.data!.refresh_token);
    expect(res.status).to.equal(200);

    // At once: the logout answer has left, nothing else needs to happen first.
    for (const app of [b, a])
      for (const token of laptopTokens) expect(await profileStatus(app, token), app.url).to.equal(401);
    expect(await Promise.all(laptopClosed)).to.deep.equal(['io server disconnect', 'io server disconnect']);
    for (const app of [a, b]) {
      const refused = connectSocket(app.url, laptop.token);
      sockets.push(refused);
      const outcome = await connected(refused).then(
        () => 'connected',
        (err: Error) => err.message,
      );
      expect(outcome, app.url).to.equal('unauthorized');
    }

    // The phone's session: REST on both instances, and its sockets still get the user's pushes.
    for (const app of [a, b]) expect(await profileStatus(app, phone.token)).to.equal(200);
    expect(phoneSockets.map((s) => s.connected)).to.deep.equal([true, true]);
    const pushed = phoneSockets.map(
      (s) => new Promise<void>((resolve) => s.once('holdings:changed', resolve)),
    );
    const added = await apiClient(b.url).post(
      '/api/holdings/manual',
      { symbol: 'TCS', exchange: 'NSE', quantity: 1, average_price: 100 },
      phone.token,
    );
    expect(added.status).to.equal(201);
    await Promise.all(pushed);
    expect(phoneSockets.map((s) => s.connected)).to.deep.equal([true, true]);
  });

  it('a refresh token used again (stolen) ends its session the same way', async () => {
    const user = await signIn(a);
    const rotated = await refresh(a, user.refreshToken);
    expect(rotated.status).to.equal(200);
    const socket = await open(b, rotated.body.data!.access_token);
    const closed = closedBy(socket);
    // Past the reuse grace window, as a thief replaying the old token later would be.
    await a.runtime.deps.db
      .update(refreshTokens)
      .set({ rotatedAt: new Date(Date.now() - 60_000) })
      .where(eq(refreshTokens.tokenHash, hashToken(user.refreshToken)));
    const reuse = await refresh(a, user.refreshToken);
    expect(reuse.status).to.equal(401);
    for (const app of [b, a]) expect(await profileStatus(app, rotated.body.data!.access_token)).to.equal(401);
    expect(await closed).to.equal('io server disconnect');
  });
});

describe('auth: logout on one instance without Redis', function () {
  this.timeout(30_000);
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    a = await bootApp({ embeddedStreamer: false });
    b = await secondInstance(a, false);
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  it('is refused on that instance at once, and on the other once its cached second has passed', async () => {
    const laptop = await signIn(a);
    const phone = await signIn(a, { email: laptop.email });
    for (const app of [a, b]) expect(await profileStatus(app, laptop.token)).to.equal(200);
    expect((await logout(a, laptop.refreshToken)).status).to.equal(200);
    expect(await profileStatus(a, laptop.token)).to.equal(401);
    await waitFor(
      'the other instance to refuse the ended session',
      async () => ((await profileStatus(b, laptop.token)) === 401 ? true : undefined),
      5_000,
    );
    for (const app of [a, b]) expect(await profileStatus(app, phone.token)).to.equal(200);
  });
});
