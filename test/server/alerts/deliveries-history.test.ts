/**
 * Where each alert went (docs/notifications.md#where-each-alert-went): History's executions carry
 * their outbox rows as `deliveries`, statuses in History's words, a notice's other executions the
 * lead's, never another user's, in one query for a page of 200; and the refresh by ids.
 */
import type { ApiExecutionDeliveries, ApiExecutionsPage, ApiRuleExecution } from '@app/common/api/rules';
import type { ApiAlertsOverview } from '@app/common/api/price-alerts';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../../../server/src/db/client.ts';
import { alertDeliveries, notificationEndpoints, ruleExecutions } from '../../../server/src/db/schema.ts';
import { bootApp, type TestApp } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import { testServices } from '../../helpers/root-hooks.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';

const HOUR_MS = 3_600_000;
/** Rows the worker must leave alone: not due for a day. */
const NOT_DUE = () => new Date(Date.now() + 24 * HOUR_MS);

describe('History: where each alert went (deliveries)', function () {
  this.timeout(60_000);
  const statements: string[] = [];
  let database: DatabaseHandle;
  let app: TestApp;
  const api = apiClient(() => app.url);

  before(async () => {
    database = await openDatabase({
      databaseUrl: testServices().databaseUrl,
      dataDir: 'memory://',
      logQuery: (query) => statements.push(query),
    });
    app = await bootApp({ database, embeddedStreamer: false });
  });
  after(async () => {
    await app?.close();
    await database?.close();
  });

  const db = () => app.runtime.deps.db;

  async function emailEndpointOf(user: SignedInUser) {
    const [endpoint] = await db()
      .select()
      .from(notificationEndpoints)
      .where(and(eq(notificationEndpoints.userId, user.id), eq(notificationEndpoints.type, 'email')));
    return endpoint!;
  }

  async function addPhoneEndpoint(user: SignedInUser) {
    const url = `https://fcm.googleapis.com/fcm/send/${randomUUID()}`;
    const [endpoint] = await db()
      .insert(notificationEndpoints)
      .values({
        userId: user.id,
        type: 'webpush',
        value: url,
        valueKey: url,
        label: 'Chrome on Android',
        verificationStatus: 'verified',
      })
      .returning();
    return endpoint!;
  }

  async function insertExecution(user: SignedInUser, opts: { minutesAgo?: number; symbol?: string } = {}) {
    const [row] = await db()
      .insert(ruleExecutions)
      .values({
        userId: user.id,
        symbol: opts.symbol ?? 'INFY',
        exchange: 'NSE',
        triggerType: 'FIXED_STOP_LOSS',
        status: 'SUCCESS',
        triggerPrice: '1240',
        executionPrice: '1234.5',
        executedAt: new Date(Date.now() - (opts.minutesAgo ?? 5) * 60_000),
      })
      .returning();
    return row!;
  }

  const page = async (user: SignedInUser, query = '') =>
    (await api.get<ApiExecutionsPage>(`/api/rule-executions${query}`, user.token)).body.data!;

  it('lists each execution with its deliveries: channel, status in words, error, time, label', async () => {
    const user = await signIn(app, { email: `rohan-${randomUUID().slice(0, 6)}@gmail.com` });
    const email = await emailEndpointOf(user);
    const phone = await addPhoneEndpoint(user);
    const execution = await insertExecution(user);
    const sentAt = new Date(Date.now() - 4 * 60_000);
    const failedAt = new Date(Date.now() - 3 * 60_000);
    // The phone's row first, so the order by channel is not just the order of insertion.
    await db()
      .insert(alertDeliveries)
      .values([
        {
          executionId: execution.id,
          endpointId: phone.id,
          channel: 'webpush',
          destination: phone.value,
          status: 'FAILED',
          attempts: 1,
          lastError: 'The push service refused the message (413 Payload Too Large).\n    at send (push.ts:1)',
          statusAt: failedAt,
        },
        {
          executionId: execution.id,
          endpointId: email.id,
          channel: 'email',
          destination: user.email,
          status: 'SENT',
          attempts: 1,
          sentAt,
        },
      ]);

    const { executions } = await page(user);
    expect(executions).to.have.length(1);
    expect(executions[0]!.deliveries).to.deep.equal([
      { channel: 'email', status: 'sent', at: sentAt.toISOString(), label: `r…@gmail.com` },
      {
        channel: 'webpush',
        status: 'failed',
        error: 'The push service refused the message (413 Payload Too Large).',
        at: failedAt.toISOString(),
        label: 'Chrome on Android',
      },
    ]);
    const text = JSON.stringify(executions[0]);
    expect(text, 'the push URL is a capability: it never goes out').to.not.contain('fcm.googleapis.com');
    expect(text, 'a sentence, never a stack').to.not.contain('push.ts:1');
  });

  it('says queued, sent, accepted, delivered, read and failed for the outbox statuses', async () => {
    const user = await signIn(app);
    const email = await emailEndpointOf(user);
    const statuses = ['PENDING', 'SENDING', 'SENT', 'ACCEPTED', 'DELIVERED', 'READ', 'FAILED'] as const;
    const created = new Date(Date.now() - 10 * 60_000);
    const executions = [];
    for (const [i, status] of statuses.entries()) {
      const execution = await insertExecution(user, { minutesAgo: 20 + i });
      executions.push(execution);
      await db()
        .insert(alertDeliveries)
        .values({
          executionId: execution.id,
          endpointId: email.id,
          channel: 'email',
          destination: user.email,
          status,
          nextAttemptAt: NOT_DUE(),
          lockedUntil: status === 'SENDING' ? NOT_DUE() : null,
          // The failed row has no recorded reason: History still gives one.
          createdAt: created,
        });
    }
    const listed = (await page(user)).executions;
    expect(listed.map((e) => e.deliveries.map((d) => d.status).join())).to.deep.equal([
      'queued',
      'queued',
      'sent',
      'accepted',
      'delivered',
      'read',
      'failed',
    ]);
    expect(listed[0]!.deliveries[0]!.at, 'never sent: the time it was queued').to.equal(
      created.toISOString(),
    );
    expect(listed[0]!.deliveries[0]).to.not.have.property('error');
    expect(listed[6]!.deliveries[0]!.error).to.equal('Not sent: no reason was recorded.');
  });

  it("gives a notice's other executions the lead's deliveries, and never another user's rows", async () => {
    const user = await signIn(app);
    const other = await signIn(app);
    const email = await emailEndpointOf(user);
    const lead = await insertExecution(user, { minutesAgo: 2 });
    const follower = await insertExecution(user, { minutesAgo: 2 });
    await db().update(ruleExecutions).set({ noticeId: lead.id }).where(eq(ruleExecutions.id, lead.id));
    await db().update(ruleExecutions).set({ noticeId: lead.id }).where(eq(ruleExecutions.id, follower.id));
    await db().insert(alertDeliveries).values({
      executionId: lead.id,
      endpointId: email.id,
      channel: 'email',
      destination: user.email,
      status: 'SENT',
      sentAt: new Date(),
    });
    const alone = await insertExecution(user, { minutesAgo: 30 });

    const listed = new Map((await page(user)).executions.map((e) => [e.id, e]));
    expect(listed.get(lead.id)!.deliveries.map((d) => d.status)).to.deep.equal(['sent']);
    expect(listed.get(follower.id)!.deliveries).to.deep.equal(listed.get(lead.id)!.deliveries);
    expect(listed.get(alone.id)!.deliveries, 'told only in the app').to.deep.equal([]);

    // The bell's feed and one item (marked read) share the presenter.
    const bell = (await api.get<ApiAlertsOverview>('/api/alerts', user.token)).body.data!;
    expect(bell.feed.find((e) => e.id === lead.id)!.deliveries.map((d) => d.status)).to.deep.equal(['sent']);
    const read = await api.put<{ item: ApiRuleExecution }>(
      `/api/alerts/${lead.id}`,
      { read: true },
      user.token,
    );
    expect(read.body.data!.item.deliveries.map((d) => d.channel)).to.deep.equal(['email']);

    // Another user sees none of it, by list or by ids.
    expect((await page(other)).executions).to.deep.equal([]);
    const byIds = await api.get<ApiExecutionDeliveries>(
      `/api/rule-executions/deliveries?ids=${lead.id},${follower.id}`,
      other.token,
    );
    expect(byIds.status).to.equal(200);
    expect(byIds.body.data).to.deep.equal({ deliveries: {} });
    const mine = await api.get<ApiExecutionDeliveries>(
      `/api/rule-executions/deliveries?ids=${lead.id},${follower.id},${alone.id}`,
      user.token,
    );
    expect(Object.keys(mine.body.data!.deliveries).sort()).to.deep.equal(
      [lead.id, follower.id, alone.id].sort(),
    );
    expect(mine.body.data!.deliveries[follower.id]).to.deep.equal(listed.get(lead.id)!.deliveries);
    expect(mine.body.data!.deliveries[alone.id]).to.deep.equal([]);
  });

  it('refuses ids that are not execution ids, or too many, with a sentence', async () => {
    const user = await signIn(app);
    const message = 'ids: give 1 to 100 execution ids, separated by commas';
    for (const query of [
      '',
      '?ids=',
      '?ids=abc',
      `?ids=${Array.from({ length: 101 }, () => randomUUID()).join(',')}`,
    ]) {
      const res = await api.get(`/api/rule-executions/deliveries${query}`, user.token);
      expect(res.status, query.slice(0, 20)).to.equal(400);
      expect(res.body.error).to.equal(message);
    }
    expect((await api.get(`/api/rule-executions/deliveries?ids=${randomUUID()}`)).status).to.equal(401);
  });

  it('reads the deliveries of a page of 200 executions in one query', async () => {
    const user = await signIn(app);
    const email = await emailEndpointOf(user);
    const phone = await addPhoneEndpoint(user);
    const rows = await db()
      .insert(ruleExecutions)
      .values(
        Array.from({ length: 200 }, (_, i) => ({
          userId: user.id,
          symbol: 'TCS',
          exchange: 'NSE' as const,
          triggerType: 'FIXED_STOP_LOSS',
          status: 'SUCCESS',
          triggerPrice: '3500',
          executionPrice: '3490',
          executedAt: new Date(Date.now() - (i + 1) * 60_000),
        })),
      )
      .returning({ id: ruleExecutions.id });
    await db()
      .insert(alertDeliveries)
      .values(
        rows.flatMap((r) => [
          {
            executionId: r.id,
            endpointId: email.id,
            channel: 'email' as const,
            destination: user.email,
            status: 'SENT' as const,
          },
          {
            executionId: r.id,
            endpointId: phone.id,
            channel: 'webpush' as const,
            destination: phone.value,
            status: 'ACCEPTED' as const,
          },
        ]),
      );
    const before = statements.length;
    const listed = await page(user, '?limit=200');
    const reads = statements.slice(before).filter((q) => /from "alert_deliveries"/i.test(q));
    expect(listed.executions).to.have.length(200);
    expect(
      listed.executions.every(
        (e) => e.deliveries.map((d) => `${d.channel} ${d.status}`).join() === 'email sent,webpush accepted',
      ),
    ).to.equal(true);
    expect(reads, 'one query for the page, not one per row').to.have.length(1);
  });
});
