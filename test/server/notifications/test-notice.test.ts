import type { ApiAlertQuota } from '@app/common/api/rules';
import { expect } from 'chai';
import { inArray } from 'drizzle-orm';
import { devOutbox } from '../../../server/src/db/schema.ts';
import { recordTestNotice } from '../../../server/src/notifications/test-notice.ts';
import { waitFor } from '../../helpers/wait.ts';
import { listExecutions, rulesSuite, settledExecution } from '../rules/support.ts';
import { addEndpoint, emailEndpointOf, outboxOf, scriptedSender } from './support.ts';

const APP_URL = 'http://app.example.test';

describe('a test notice ("Send a test"): one endpoint, a History row, never counted', () => {
  const push = scriptedSender('webpush');
  const { app, api, users } = rulesSuite({
    ownDatabase: true,
    env: { APP_URL },
    delivery: { pollMs: 50 },
    senders: () => [push.sender],
  });
  const deps = () => ({ db: app.runtime.deps.db, deliveries: app.runtime.deliveries });

  it('emails the one address; History says where it came from; the quota is untouched', async () => {
    const user = await users.make();
    const email = await emailEndpointOf(app, user);
    await addEndpoint(app, user, 'webpush');
    const recorded = await recordTestNotice(deps(), { userId: user.id, endpointId: email.id });
    const execution = await settledExecution(app, user);
    expect(execution).to.deep.include({
      id: recorded!.executionId,
      execution_type: 'TEST',
      message: 'Sent from Settings to check where alerts arrive.',
      status: 'SUCCESS',
    });
    const rows = await outboxOf(app, execution.id);
    expect(rows.map((r) => [r.channel, r.endpointId, r.status])).to.deep.equal([['email', email.id, 'SENT']]);
    const [mail] = await app.runtime.deps.db
      .select()
      .from(devOutbox)
      .where(inArray(devOutbox.to, [user.email]));
    expect(mail!.subject).to.equal('Portfolio Guard: test message');
    expect(mail!.text).to.include('http://app.example.test/settings');
    const quota = await api.get<ApiAlertQuota>('/api/alerts/quota', user.token);
    expect(quota.body.data).to.deep.include({ used: 0, remaining: 5 });
  });

  it("a phone endpoint's test reaches its sender worded as a test", async () => {
    const user = await users.make();
    const phone = await addEndpoint(app, user, 'webpush');
    const recorded = await recordTestNotice(deps(), { userId: user.id, endpointId: phone.id });
    await waitFor('the push', async () => (push.to(phone.value).length > 0 ? true : undefined));
    const [handed] = push.to(phone.value);
    expect(handed!.delivery.text).to.deep.include({
      kind: 'test',
      title: 'Test from Portfolio Guard',
      body: 'Alerts will arrive here.',
      url: 'http://app.example.test/settings',
      protective: false,
    });
    const rows = await outboxOf(app, recorded!.executionId);
    expect(rows.map((r) => r.channel)).to.deep.equal(['webpush']);
  });

  it("refuses another user's endpoint, and one not verified or turned off: nothing recorded", async () => {
    const owner = await users.make();
    const stranger = await users.make();
    const email = await emailEndpointOf(app, owner);
    expect(await recordTestNotice(deps(), { userId: stranger.id, endpointId: email.id })).to.equal(null);
    expect(await listExecutions(app, stranger)).to.deep.equal([]);
    const pending = await addEndpoint(app, owner, 'email', { verified: false });
    const off = await addEndpoint(app, owner, 'webpush', { active: false });
    for (const endpoint of [pending, off]) {
      expect(await recordTestNotice(deps(), { userId: owner.id, endpointId: endpoint.id })).to.equal(null);
    }
    expect(await listExecutions(app, owner)).to.deep.equal([]);
  });
});
