/**
 * DELETE /api/users/me {confirm_email}: a wrong email deletes nothing; the account's email (any
 * case) removes every row of the user, refuses their tokens at once and closes their sockets on
 * every instance (two instances, one Redis), and a last email goes to the account's address.
 */
import { ACCOUNT_TEXTS } from '@app/common/api/account';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'chai';
import { bootApp, type TestApp } from '../../helpers/app.ts';
import { apiClient, request } from '../../helpers/http.ts';
import { connected, connectSocket, type TestSocket } from '../../helpers/sockets.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import { queryRows } from '../../../server/src/db/client.ts';
import { isDeadlock } from '../../../server/src/db/deadlock.ts';
import { waitFor } from '../../helpers/wait.ts';
import { outboxFor } from '../endpoints/support.ts';
import { ownedCounts, seedEverything } from './support.ts';

const deleteAccount = (app: TestApp, user: SignedInUser, body: unknown) =>
  request<{ deleted: boolean }>(app.url, 'DELETE', '/api/users/me', body, { token: user.token });

const profileStatus = async (app: TestApp, token: string) =>
  (await apiClient(app.url).get('/api/auth/profile', token)).status;

/** The reason the server gave when it closed the socket. */
const closedBy = (socket: TestSocket) =>
  new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

describe('privacy: delete my account', function () {
  this.timeout(30_000);
  let a: TestApp;
  let b: TestApp;
  const sockets: TestSocket[] = [];
  before(async () => {
    a = await bootApp({ withRedis: true, embeddedStreamer: false, ownDatabase: true });
    // A second instance on the same database, as behind a load balancer.
    b = await bootApp({ withRedis: true, embeddedStreamer: false, database: a.runtime.deps.database });
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  async function open(app: TestApp, token: string): Promise<TestSocket> {
    const socket = connectSocket(app.url, token);
    sockets.push(socket);
    await connected(socket);
    return socket;
  }

  it('refuses an email that is not the account’s with a sentence, and deletes nothing', async () => {
    const user = await signIn(a);
    await seedEverything(a, user);
    const before = await ownedCounts(a, user.id);
    for (const body of [{ confirm_email: `other-${user.email}` }, { confirm_email: '' }, {}]) {
      const res = await deleteAccount(a, user, body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error)
        .to.be.a('string')
        .and.match(/\.$|confirm/);
    }
    expect((await deleteAccount(a, user, { confirm_email: `x${user.email}` })).body.error).to.equal(
      ACCOUNT_TEXTS.wrongEmail,
    );
    expect(await ownedCounts(a, user.id)).to.deep.equal(before);
    expect(await profileStatus(a, user.token)).to.equal(200);
  });

  it('with the account’s email: every row goes, tokens and sockets end on both instances, a last email is sent', async () => {
    const user = await signIn(a, { email: `Delete-${randomUUID().slice(0, 8)}@Example.com` });
    const other = await signIn(a);
    await seedEverything(a, user, 'TCS');
    await seedEverything(a, other, 'ITC');
    const otherBefore = await ownedCounts(a, other.id);
    expect(Object.values(await ownedCounts(a, user.id)).every((n) => n > 0)).to.equal(true);
    // Both instances have just checked (and may keep) the session.
    for (const app of [a, b]) expect(await profileStatus(app, user.token)).to.equal(200);
    const socketsClosed = [await open(a, user.token), await open(b, user.token)].map(closedBy);

    const res = await deleteAccount(a, user, { confirm_email: `  ${user.email.toUpperCase()} ` });
    expect(res.status, res.body.error).to.equal(200);
    expect(res.body.data).to.deep.equal({ deleted: true });

    // At once, on both instances.
    for (const app of [a, b]) expect(await profileStatus(app, user.token)).to.equal(401);
    expect(await Promise.all(socketsClosed)).to.deep.equal(['io server disconnect', 'io server disconnect']);
    const refreshed = await request(a.url, 'POST', '/api/auth/refresh', { refresh_token: user.refreshToken });
    expect(refreshed.status).to.equal(401);

    const after = await ownedCounts(a, user.id);
    expect(after).to.deep.equal({
      users: 0,
      refresh_tokens: 0,
      notification_endpoints: 0,
      broker_accounts: 0,
      holdings: 0,
      position_rules: 0,
      price_alerts: 0,
      rule_executions: 0,
      page_events: 0,
    });
    expect(await ownedCounts(a, other.id)).to.deep.equal(otherBefore);

    const mails = await outboxFor(a, user.email);
    const last = mails.find((m) => m.subject === 'Your Portfolio Guard account was deleted');
    expect(last, mails.map((m) => m.subject).join(', ')).to.not.equal(undefined);
    expect(last!.text).to.include('was deleted, as you asked');
  });

  it('deletes the account when a job holding one of its rows deadlocks with the cascade (PostgreSQL aborts one; it is run again)', async () => {
    const db = a.runtime.deps.db;
    /**
     * A job as the corporate actions run it: a rule of the user's locked, then a row naming the
     * user written (its foreign-key check takes the user's row), while the deletion's cascade,
     * which holds the user's row, waits for the rule. PostgreSQL aborts the side whose deadlock
     * check runs first once the cycle exists: the deletion, which waited first, unless the job's
     * second lock came more than deadlock_timeout (1 s) after it, as on a loaded machine. Then the
     * job is the one aborted and the deletion is never retried: the scenario is run again.
     */
    async function deadlockedDeletion(): Promise<{ status: number; jobAborted: boolean }> {
      const user = await signIn(a);
      const { rule } = await seedEverything(a, user);
      let answer: Promise<{ status: number }> | undefined;
      let jobAborted = false;
      try {
        await db.transaction(async (tx) => {
          await tx.execute(sql`update position_rules set is_active = is_active where id = ${rule}`);
          answer = deleteAccount(a, user, { confirm_email: user.email });
          await waitFor(
            'the deletion to wait for the rule',
            async () => {
              const [row] = await queryRows<{ n: number }>(
                db,
                sql`select count(*)::int as n from pg_stat_activity
                  where wait_event_type = 'Lock' and query like 'delete from "users"%'`,
              );
              return row!.n > 0 ? true : undefined;
            },
            5_000,
            10,
          );
          await tx.execute(sql`select 1 from users where id = ${user.id} for key share`);
        });
      } catch (err) {
        if (!isDeadlock(err)) throw err;
        jobAborted = true;
      }
      const res = await answer!;
      expect(res.status).to.equal(200);
      expect((await ownedCounts(a, user.id)).users).to.equal(0);
      return { status: res.status, jobAborted };
    }

    const tries: boolean[] = [];
    for (let i = 0; i < 5 && !tries.includes(false); i++) tries.push((await deadlockedDeletion()).jobAborted);
    // At least one run where PostgreSQL aborted the deletion, and it was run again and succeeded.
    expect(tries, 'the job was aborted every time').to.include(false);
  });
});
