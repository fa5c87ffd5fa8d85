/**
 * "Send a test" (docs/notifications.md#send-a-test): `POST /api/notification-endpoints/:id/test`
 * records a test to that one endpoint and sends it; refusals say why; the limits hold; and the
 * test arrives: in the dev outbox, at the fake SendGrid, and decrypted by the fake push service.
 */
import type { ApiAlertQuota } from '@app/common/api/rules';
import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { notificationEndpoints } from '../../../server/src/db/schema.ts';
import { createWebPushSender } from '../../../server/src/channels/webpush/sender.ts';
import { sendGridSuite } from '../../helpers/fake-sendgrid.ts';
import {
  startFakePushService,
  type FakePushService,
  type FakeSubscription,
} from '../../helpers/fake-push-service.ts';
import type { TestApp } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import { waitFor } from '../../helpers/wait.ts';
import { addEndpoint, emailEndpointOf, outboxOf, scriptedSender } from '../notifications/support.ts';
import { listExecutions, rulesSuite, settledExecution } from '../rules/support.ts';
import { APP_URL, BASE, outboxFor } from './support.ts';

const VERIFY_FIRST = 'Verify this endpoint first: a test goes only to an address you have confirmed.';

const sendTest = (app: TestApp, user: SignedInUser, id: string) =>
  apiClient(app.url).post<{ execution_id: string }>(`${BASE}/${id}/test`, undefined, user.token);

describe('POST /api/notification-endpoints/:id/test', () => {
  const push = scriptedSender('webpush');
  const { app, api, users } = rulesSuite({
    ownDatabase: true,
    env: { APP_URL },
    delivery: { pollMs: 50 },
    senders: () => [push.sender],
  });

  it('answers 202 with the History row, sends to that one endpoint, and counts nothing', async () => {
    const user = await users.make();
    const email = await emailEndpointOf(app, user);
    const phone = await addEndpoint(app, user, 'webpush', { label: 'Chrome on Android' });
    const other = await addEndpoint(app, user, 'email');
    const before = await api.get<ApiAlertQuota>('/api/alerts/quota', user.token);

    const res = await sendTest(app, user, phone.id);
    expect(res.status).to.equal(202);
    const executionId = res.body.data!.execution_id;
    await waitFor('the push', async () => (push.to(phone.value).length > 0 ? true : undefined));
    expect(push.to(phone.value)[0]!.delivery.text).to.deep.include({
      title: 'Test from Portfolio Guard',
      body: 'Alerts will arrive here.',
      url: `${APP_URL}/settings`,
    });

    const execution = await settledExecution(app, user);
    expect(execution).to.deep.include({ id: executionId, execution_type: 'TEST', status: 'SUCCESS' });
    const rows = await outboxOf(app, executionId);
    expect(rows.map((r) => [r.channel, r.endpointId, r.status])).to.deep.equal([
      ['webpush', phone.id, 'ACCEPTED'],
    ]);
    for (const address of [email.value, other.value]) expect(await outboxFor(app, address)).to.deep.equal([]);
    const after = await api.get<ApiAlertQuota>('/api/alerts/quota', user.token);
    expect(after.body.data).to.deep.equal(before.body.data);
    expect(after.body.data).to.deep.include({ used: 0 });
  });

  it("is 404 for another user's endpoint, an unknown id and a malformed one; nothing recorded", async () => {
    const owner = await users.make();
    const stranger = await users.make();
    const email = await emailEndpointOf(app, owner);
    for (const id of [email.id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const res = await sendTest(app, stranger, id);
      expect(res.status, id).to.equal(404);
      expect(res.body.error).to.equal('Notification endpoint not found');
    }
    expect(await listExecutions(app, owner)).to.deep.equal([]);
    expect(await listExecutions(app, stranger)).to.deep.equal([]);
    // The refusals spent none of the owner's tests.
    expect((await sendTest(app, owner, email.id)).status).to.equal(202);
  });

  it('is 409 with a sentence for a pending endpoint and a turned-off one', async () => {
    const user = await users.make();
    const pending = await addEndpoint(app, user, 'email', { verified: false });
    const blocked = await addEndpoint(app, user, 'telegram', { active: false });
    await app.runtime.deps.db
      .update(notificationEndpoints)
      .set({ inactiveReason: 'You blocked the bot in Telegram' })
      .where(eq(notificationEndpoints.id, blocked.id));
    const unsubscribed = await addEndpoint(app, user, 'email', { active: false });

    const answers = await Promise.all([pending, blocked, unsubscribed].map((e) => sendTest(app, user, e.id)));
    expect(answers.map((r) => [r.status, r.body.error])).to.deep.equal([
      [409, VERIFY_FIRST],
      [409, 'This endpoint is turned off: You blocked the bot in Telegram'],
      [409, 'This endpoint is turned off: it receives nothing until it is turned on again.'],
    ]);
    expect(await listExecutions(app, user)).to.deep.equal([]);
  });

  it('allows one test a minute to an endpoint: 429 with a sentence and Retry-After', async () => {
    const user = await users.make();
    const email = await emailEndpointOf(app, user);
    const phone = await addEndpoint(app, user, 'webpush');
    expect((await sendTest(app, user, email.id)).status).to.equal(202);
    const again = await sendTest(app, user, email.id);
    expect(again.status).to.equal(429);
    expect(again.body.error).to.equal(
      'You sent this endpoint a test a moment ago. Please wait a minute before sending another.',
    );
    const wait = Number(again.headers.get('retry-after'));
    expect(wait).to.be.within(1, 60);
    // Another endpoint is not held back.
    expect((await sendTest(app, user, phone.id)).status).to.equal(202);
    expect(await listExecutions(app, user)).to.have.length(2);
  });

  it('allows ten tests an hour per user: the eleventh is 429 with a sentence', async () => {
    const user = await users.make();
    const endpoints = await Promise.all(Array.from({ length: 11 }, () => addEndpoint(app, user, 'webpush')));
    for (const endpoint of endpoints.slice(0, 10)) {
      expect((await sendTest(app, user, endpoint.id)).status).to.equal(202);
    }
    const eleventh = await sendTest(app, user, endpoints[10]!.id);
    expect(eleventh.status).to.equal(429);
    expect(eleventh.body.error).to.equal('You can send at most 10 tests an hour. Please try again later.');
    expect(Number(eleventh.headers.get('retry-after'))).to.be.within(61, 3600);
    // Someone else's tests are their own.
    const other = await users.make();
    expect((await sendTest(app, other, (await emailEndpointOf(app, other)).id)).status).to.equal(202);
  });

  it('needs a signed-in user', async () => {
    const res = await apiClient(app.url).post(`${BASE}/00000000-0000-4000-8000-000000000000/test`);
    expect(res.status).to.equal(401);
  });
});

describe('Send a test, end to end: the email', () => {
  describe('with the dev outbox', () => {
    const { app, users } = rulesSuite({ ownDatabase: true, env: { APP_URL }, delivery: { pollMs: 50 } });

    it('the test email arrives in the outbox', async () => {
      const user = await users.make();
      const email = await emailEndpointOf(app, user);
      expect((await sendTest(app, user, email.id)).status).to.equal(202);
      const [mail] = await waitFor('the test email', async () => {
        const mails = await outboxFor(app, user.email);
        return mails.length > 0 ? mails : undefined;
      });
      expect(mail!.subject).to.equal('Portfolio Guard: test message');
      expect(mail!.text)
        .to.contain('alerts from Portfolio Guard will arrive at this address')
        .and.contain(`${APP_URL}/settings`);
    });
  });

  describe('through SendGrid', () => {
    const { app, fake } = sendGridSuite({ env: { APP_URL }, delivery: { pollMs: 50 } });

    it('the fake SendGrid receives the test email', async () => {
      const user = await signIn(app);
      const email = await emailEndpointOf(app, user);
      expect((await sendTest(app, user, email.id)).status).to.equal(202);
      const [mail] = await waitFor('the test email', async () => {
        const mails = fake.mailsTo(user.email);
        return mails.length > 0 ? mails : undefined;
      });
      expect(mail!.subject).to.equal('Portfolio Guard: test message');
      expect(mail!.html).to.contain('Open Settings');
      const execution = await settledExecution(app, user);
      expect(execution.status).to.equal('SUCCESS');
    });
  });
});

describe('Send a test, end to end: Web Push through the fake push service', () => {
  let fake: FakePushService | undefined;
  const pushService = () => {
    if (!fake) throw new Error('the fake push service has not started');
    return fake;
  };
  before(async () => {
    fake = await startFakePushService();
  });
  after(async () => {
    await fake?.close();
  });
  const { app, api, users } = rulesSuite(() => ({
    ownDatabase: true,
    env: { APP_URL, WEBPUSH_ALLOW_PRIVATE_ENDPOINTS: 'true' },
    delivery: { pollMs: 50 },
    // The real sender, trusting the fake's certificate (TLS stays on).
    senders: (deps) => [
      createWebPushSender({
        vapid: deps.vapid,
        log: deps.log,
        allowPrivateEndpoints: true,
        ca: pushService().ca,
      }),
    ],
  }));

  it('the push service receives {title, body, url, tag}, encrypted for the subscription', async () => {
    const user = await users.make();
    const subscription: FakeSubscription = pushService().subscribe(app.runtime.deps.vapid.publicKey);
    const added = await api.post<{ id: string }>(
      BASE,
      { type: 'webpush', subscription: { endpoint: subscription.endpoint, keys: subscription.keys } },
      user.token,
    );
    expect(added.status, added.body.error).to.equal(201);
    const res = await sendTest(app, user, added.body.data!.id);
    expect(res.status).to.equal(202);
    const [received] = await waitFor('the push', async () => {
      const pushes = pushService().receivedBy(subscription);
      return pushes.length > 0 ? pushes : undefined;
    });
    expect(received!.decryptError).to.equal(null);
    expect(JSON.parse(received!.payload!)).to.deep.equal({
      title: 'Test from Portfolio Guard',
      body: 'Alerts will arrive here.',
      url: `${APP_URL}/settings`,
      tag: `test-${res.body.data!.execution_id}`,
    });
    const execution = await settledExecution(app, user);
    expect(execution.deliveries.map((d) => [d.channel, d.status])).to.deep.equal([['webpush', 'accepted']]);
  });
});
