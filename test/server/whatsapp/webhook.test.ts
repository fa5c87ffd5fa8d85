/**
 * Meta's webhook (docs/notifications.md#whatsapp): the subscribe handshake; a body whose
 * X-Hub-Signature-256 is not the HMAC of its exact bytes is refused (401) and changes nothing; the
 * statuses the fake Graph API reports for messages the sender sent (signed, later, with duplicates,
 * out of order, read without delivered) end in the same final state; `failed` records Meta's code
 * and title, fails the execution, and for 131026 turns the number off.
 */
import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { createWhatsAppSender } from '../../../server/src/channels/whatsapp/sender.ts';
import { alertDeliveries, notificationEndpoints, ruleExecutions } from '../../../server/src/db/schema.ts';
import type { OutgoingDelivery } from '../../../server/src/notifications/channel.ts';
import {
  FAKE_WHATSAPP,
  hubSignature,
  whatsappSuite,
  WHATSAPP_SAMPLES,
  type StatusPlan,
} from '../../helpers/fake-whatsapp.ts';
import { request } from '../../helpers/http.ts';
import { readShared } from '../../helpers/shared-data.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import { waitFor } from '../../helpers/wait.ts';
import { uniqueNumber } from './support.ts';

const HOOK = '/api/whatsapp/webhook';

describe('WhatsApp webhook: handshake, signature, statuses', () => {
  const { app, fake } = whatsappSuite();
  let user: SignedInUser;
  before(async () => {
    user = await signIn(app, { tier: 'advanced' });
  });

  const db = () => app.runtime.deps.db;

  /**
   * A fired stop loss with one delivery to a verified WhatsApp number, as the worker leaves it once
   * the sender's answer is recorded: ACCEPTED with the wamid (or, `recorded: false`, still SENDING).
   */
  async function sendAlert(plan: StatusPlan, { recorded = true } = {}) {
    const number = uniqueNumber();
    fake.planFor(number, plan);
    const [endpoint] = await db()
      .insert(notificationEndpoints)
      .values({
        userId: user.id,
        type: 'whatsapp',
        value: number,
        valueKey: number,
        verificationStatus: 'verified',
      })
      .returning();
    const [execution] = await db()
      .insert(ruleExecutions)
      .values({
        userId: user.id,
        symbol: 'INFY',
        exchange: 'NSE',
        triggerType: 'FIXED_STOP_LOSS',
        triggerPrice: '1240',
        executionPrice: '1234.5',
        message: 'INFY fell to ₹1,234.50, at or below your stop loss at ₹1,240.00',
      })
      .returning();
    const [row] = await db()
      .insert(alertDeliveries)
      .values({
        executionId: execution!.id,
        endpointId: endpoint!.id,
        channel: 'whatsapp',
        destination: number,
        status: 'SENDING',
        attempts: 1,
        lockedUntil: new Date(Date.now() + 600_000),
      })
      .returning();
    const sender = createWhatsAppSender({
      whatsapp: app.runtime.deps.config.whatsapp!,
      log: app.runtime.deps.log,
    });
    const outgoing: OutgoingDelivery = {
      id: row!.id,
      executionId: execution!.id,
      userId: user.id,
      attempts: 1,
      endpoint: { id: endpoint!.id, value: number, label: null, meta: null },
      text: {
        kind: 'alert',
        title: 'INFY stop loss hit',
        body: '₹1,234.50 crossed ₹1,240.00 · 10:41 IST',
        url: `${app.url}/holdings`,
        tag: 'rule-1',
        protective: true,
        symbol: 'INFY',
      },
    };
    const [outcome] = await sender.send([outgoing]);
    expect(outcome!.kind).to.equal('accepted');
    const wamid = (outcome as { providerMessageId: string }).providerMessageId;
    if (recorded)
      await db()
        .update(alertDeliveries)
        .set({ status: 'ACCEPTED', providerMessageId: wamid, sentAt: new Date(), lockedUntil: null })
        .where(eq(alertDeliveries.id, row!.id));
    return { deliveryId: row!.id, executionId: execution!.id, endpointId: endpoint!.id, wamid };
  }

  const deliveryRow = async (id: string) =>
    (await db().select().from(alertDeliveries).where(eq(alertDeliveries.id, id)))[0]!;

  describe('the subscribe handshake', () => {
    it('confirms Meta’s subscription with our verify token, and only with it', async () => {
      expect(await fake.subscribe(FAKE_WHATSAPP.verifyToken)).to.deep.equal({ status: 200, confirmed: true });
      expect(await fake.subscribe('someone-elses-verify-token')).to.deep.equal({
        status: 403,
        confirmed: false,
      });
    });

    it('answers the challenge raw as text/plain when the verify token is ours, else 403', async () => {
      const good = await fetch(
        `${app.url}${HOOK}?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=${FAKE_WHATSAPP.verifyToken}`,
      );
      expect(good.status).to.equal(200);
      expect(good.headers.get('content-type')).to.match(/^text\/plain/);
      expect(await good.text()).to.equal('1158201444');
      for (const query of [
        'hub.mode=subscribe&hub.challenge=1&hub.verify_token=wrong-token-of-same-size!',
        'hub.mode=subscribe&hub.challenge=1',
        `hub.mode=unsubscribe&hub.challenge=1&hub.verify_token=${FAKE_WHATSAPP.verifyToken}`,
      ]) {
        const bad = await fetch(`${app.url}${HOOK}?${query}`);
        expect(bad.status, query).to.equal(403);
        expect(await bad.text()).to.not.include('1158201444');
      }
    });
  });

  describe('the signature', () => {
    it('refuses 401 a body not signed over its exact bytes, and changes nothing', async () => {
      const sent = await sendAlert({ end: 'none' });
      const body = {
        object: 'whatsapp_business_account',
        entry: [
          {
            id: '1',
            changes: [
              {
                field: 'messages',
                value: { statuses: [{ id: sent.wamid, status: 'read', timestamp: '1750857384' }] },
              },
            ],
          },
        ],
      };
      const bytes = JSON.stringify(body, null, 1);
      const attempts: Array<Record<string, string>> = [
        {},
        { 'x-hub-signature-256': hubSignature('another-apps-secret-0123456789', bytes) },
        // Signed over the re-serialized JSON, not the bytes sent.
        { 'x-hub-signature-256': hubSignature(FAKE_WHATSAPP.appSecret, JSON.stringify(body)) },
        { 'x-hub-signature-256': hubSignature(FAKE_WHATSAPP.appSecret, bytes).replace('sha256=', 'sha1=') },
        { 'x-hub-signature-256': 'sha256=zz' },
      ];
      for (const headers of attempts) {
        const res = await request(app.url, 'POST', HOOK, undefined, {
          raw: bytes,
          headers: { 'content-type': 'application/json', ...headers },
        });
        expect(res.status, JSON.stringify(headers)).to.equal(401);
      }
      expect((await deliveryRow(sent.deliveryId)).status).to.equal('ACCEPTED');
      // The same bytes, signed right, are taken.
      const res = await request(app.url, 'POST', HOOK, undefined, {
        raw: bytes,
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': hubSignature(FAKE_WHATSAPP.appSecret, bytes),
        },
      });
      expect(res.status).to.equal(200);
      expect((await deliveryRow(sent.deliveryId)).status).to.equal('READ');
    });
  });

  describe('statuses in any order, any number of times', () => {
    const plans: Array<[string, StatusPlan]> = [
      ['sent, delivered, read', { end: 'read' }],
      ['each twice, in reverse order', { end: 'read', duplicates: true, reversed: true }],
      ['read without delivered', { end: 'read', skipDelivered: true }],
      ['all in one body, reversed', { end: 'read', reversed: true, oneBody: true }],
    ];
    for (const [name, plan] of plans) {
      it(`${name} → READ`, async () => {
        const sent = await sendAlert(plan);
        await fake.settled();
        const row = await deliveryRow(sent.deliveryId);
        expect(row.status).to.equal('READ');
        expect(row.providerMessageId).to.equal(sent.wamid);
        expect(row.statusAt).to.be.instanceOf(Date);
        expect(fake.webhookPosts.every((p) => p.status === 200)).to.equal(true);
      });
    }

    it('a late delivered after read changes nothing; delivered alone is DELIVERED', async () => {
      const sent = await sendAlert({ end: 'delivered', reversed: true, duplicates: true });
      await fake.settled();
      expect((await deliveryRow(sent.deliveryId)).status).to.equal('DELIVERED');
      const readAt = Math.floor(Date.now() / 1000) + 5;
      const post = async (status: string, timestamp: number) => {
        const bytes = JSON.stringify({
          object: 'whatsapp_business_account',
          entry: [
            {
              id: '1',
              changes: [
                {
                  field: 'messages',
                  value: { statuses: [{ id: sent.wamid, status, timestamp: String(timestamp) }] },
                },
              ],
            },
          ],
        });
        const res = await request(app.url, 'POST', HOOK, undefined, {
          raw: bytes,
          headers: {
            'content-type': 'application/json',
            'x-hub-signature-256': hubSignature(FAKE_WHATSAPP.appSecret, bytes),
          },
        });
        expect(res.status).to.equal(200);
      };
      await post('read', readAt);
      await post('delivered', readAt + 10);
      await post('sent', readAt + 20);
      const row = await deliveryRow(sent.deliveryId);
      expect(row.status).to.equal('READ');
      expect(row.statusAt!.getTime()).to.equal(readAt * 1000);
    });

    it('finds a delivery whose wamid is not recorded yet by biz_opaque_callback_data', async () => {
      const sent = await sendAlert({ end: 'delivered' }, { recorded: false });
      await fake.settled();
      const row = await deliveryRow(sent.deliveryId);
      expect(row).to.include({ status: 'DELIVERED', providerMessageId: sent.wamid });
      expect(row.lockedUntil).to.equal(null);
    });
  });

  describe('failed', () => {
    it('131026 after accept: FAILED with code and title, the number turned off, the fallback email sent at once', async () => {
      const sent = await sendAlert({
        end: 'failed',
        failure: { code: 131026, title: 'Message undeliverable' },
        reversed: true,
      });
      await fake.settled();
      const row = await deliveryRow(sent.deliveryId);
      expect(row.status).to.equal('FAILED');
      expect(row.lastError).to.equal('WhatsApp 131026: Message undeliverable');
      // The user's verified email takes the alert instead (deliveries/fallback.ts), handed to the
      // worker by the webhook itself: the execution follows it.
      const execution = await waitFor('the execution to follow its fallback email', async () => {
        const [e] = await db().select().from(ruleExecutions).where(eq(ruleExecutions.id, sent.executionId));
        return e!.status === 'PENDING' ? undefined : e!;
      });
      expect(execution.status).to.equal('SUCCESS');
      const fallbacks = await db()
        .select()
        .from(alertDeliveries)
        .where(eq(alertDeliveries.fallbackOf, sent.deliveryId));
      expect(fallbacks.map((f) => [f.channel, f.destination, f.status])).to.deep.equal([
        ['email', user.email, 'SENT'],
      ]);
      const [endpoint] = await db()
        .select()
        .from(notificationEndpoints)
        .where(eq(notificationEndpoints.id, sent.endpointId));
      expect(endpoint!.isActive).to.equal(false);
      expect(endpoint!.inactiveReason).to.match(/WhatsApp could not deliver to this number \(131026\)/);
    });

    it('another code (131047) fails the delivery but keeps the number', async () => {
      const sent = await sendAlert({
        end: 'failed',
        failure: { code: 131047, title: 'Re-engagement message' },
        duplicates: true,
      });
      await fake.settled();
      expect((await deliveryRow(sent.deliveryId)).lastError).to.equal(
        'WhatsApp 131047: Re-engagement message',
      );
      const [endpoint] = await db()
        .select()
        .from(notificationEndpoints)
        .where(eq(notificationEndpoints.id, sent.endpointId));
      expect(endpoint!.isActive).to.equal(true);
    });
  });

  it('takes the recorded status bodies as Meta sent them (unknown wamids change nothing)', async () => {
    const samples = JSON.parse(readShared(WHATSAPP_SAMPLES)) as Record<string, unknown>;
    for (const name of ['sent', 'delivered', 'read', 'failed']) {
      const bytes = JSON.stringify(samples[name]);
      const res = await request<{ updated: number }>(app.url, 'POST', HOOK, undefined, {
        raw: bytes,
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': hubSignature(FAKE_WHATSAPP.appSecret, bytes),
        },
      });
      expect(res.status, name).to.equal(200);
      expect(res.body.data!.updated).to.equal(0);
    }
  });
});
