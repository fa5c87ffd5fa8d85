/**
 * Web Push end to end (issue #30): a published tick batch crosses a stop → the claim writes the
 * outbox rows for the user's endpoints → the real delivery worker (polling, and BullMQ with Redis)
 * hands the push row to the app's Web Push sender → the fake push service decrypts what the phone
 * would show → History carries the deliveries. Also: a retried push is sent and shown once, a
 * 410 turns the device off in Settings, and a digest or corporate-action notice reaches only a
 * device that receives that kind.
 */
import type { NoticeKind } from '@app/common/notifications/channels';
import { expect } from 'chai';
import { and, eq, sql } from 'drizzle-orm';
import { corporateActions, positionRules } from '../../../server/src/db/schema.ts';
import { recordDigest } from '../../../server/src/digest/record.ts';
import { startFakePushService, type FakePushService } from '../../helpers/fake-push-service.ts';
import { apiClient } from '../../helpers/http.ts';
import { madeBefore } from '../../helpers/made-before.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { sleep, waitFor } from '../../helpers/wait.ts';
import { publishPrices, rulesSuite } from '../rules/support.ts';
import {
  armStopAt1000,
  badges,
  enablePush,
  executionOf,
  listEndpoints,
  pushSenderFor,
} from './e2e-support.ts';
import { outboxOf } from './support.ts';

const settled = (e: { status: string }) => e.status !== 'PENDING';

for (const withRedis of [false, true])
  describe(`end to end, Web Push: a crossing to the phone (${withRedis ? 'BullMQ' : 'polling'})`, function () {
    this.timeout(60_000);
    let started: FakePushService | undefined;
    const fake = madeBefore('the fake push service', () => started);
    before(async () => {
      started = await startFakePushService();
    });
    const { app, users } = rulesSuite(() => ({
      ownDatabase: true,
      withRedis,
      env: { WEBPUSH_ALLOW_PRIVATE_ENDPOINTS: 'true' },
      delivery: { pollMs: 50, retry: { baseDelayMs: 100, maxAttempts: 4 } },
      senders: pushSenderFor(() => fake),
    }));
    after(async () => {
      await started?.close();
    });

    /** The pushes the fake decrypted for a subscription, as the phone shows them. */
    const shown = (subscription: { id: string }) =>
      fake
        .receivedBy(subscription)
        .filter((r) => r.status === 201)
        .map((r) => JSON.parse(r.payload!) as Record<string, string>);

    it('a batch crosses a stop on INFY: the phone shows "INFY stop loss hit" with the prices and time, urgent, for 4 hours; History: email sent, push accepted', async () => {
      const user = await users.make();
      const { subscription } = await enablePush(app, fake, user);
      await armStopAt1000(app, user, 'INFY');
      await publishPrices(app, { INFY: 900 });
      const execution = await executionOf(app, user, 'INFY', settled);
      expect(execution.status).to.equal('SUCCESS');
      expect(badges(execution)).to.deep.equal(['email sent', 'webpush accepted']);
      const push = execution.deliveries.find((d) => d.channel === 'webpush')!;
      expect(push.label).to.equal('Chrome on Android');

      const [received, ...more] = fake.receivedBy(subscription);
      expect(more).to.deep.equal([]);
      expect(received!.decryptError).to.equal(null);
      const payload = JSON.parse(received!.payload!) as Record<string, string>;
      expect(payload.title).to.equal('INFY stop loss hit');
      expect(payload.body).to.match(/^₹900\.00 crossed ₹950\.00 · \d{2}:\d{2} IST$/);
      expect(payload.url).to.equal(`${app.runtime.deps.config.appUrl}/holdings?symbol=INFY`);
      expect(payload.tag).to.match(/^rule-[0-9a-f-]{36}$/);
      expect(received!.headers).to.deep.include({ urgency: 'high', ttl: String(4 * 3600) });
      expect(received!.headers.topic).to.match(/^[A-Za-z0-9_-]{32}$/);
    });

    it('a 500 then a 201: one push accepted and recorded, the push service saw two requests, the phone showed one notification', async () => {
      const user = await users.make();
      const { subscription } = await enablePush(app, fake, user);
      fake.script(subscription, { status: 500, times: 1 });
      await armStopAt1000(app, user, 'TCS');
      await publishPrices(app, { TCS: 900 });
      const execution = await executionOf(app, user, 'TCS', settled);
      expect(execution.status).to.equal('SUCCESS');
      expect(badges(execution)).to.deep.equal(['email sent', 'webpush accepted']);
      // Give a stray second send (a re-claimed row, a second job) time to show itself.
      await sleep(500);
      expect(fake.receivedBy(subscription).map((r) => r.status)).to.deep.equal([500, 201]);
      expect(shown(subscription).map((p) => p.title)).to.deep.equal(['TCS stop loss hit']);
      const rows = await outboxOf(app, execution.id);
      expect(rows.filter((r) => r.channel === 'webpush').map((r) => r.status)).to.deep.equal(['ACCEPTED']);
    });

    it('the push service answers 410: Settings shows the device off with its reason, and the next alert does not go to it', async () => {
      const user = await users.make();
      const { subscription, endpoint } = await enablePush(app, fake, user);
      fake.script(subscription, { status: 410 });
      await armStopAt1000(app, user, 'WIPRO');
      await publishPrices(app, { WIPRO: 900 });
      const execution = await executionOf(app, user, 'WIPRO', settled);
      expect(badges(execution)).to.deep.equal(['email sent', 'webpush failed']);
      // The email reached the investor: the alert was sent; its push badge says the device failed,
      // and the device's row its reason.
      expect(execution.status).to.equal('SUCCESS');
      const push = execution.deliveries.find((d) => d.channel === 'webpush')!;
      expect(push.error).to.match(/^push service answered 410/);
      const device = (await listEndpoints(app, user)).find((e) => e.id === endpoint.id)!;
      expect(device.is_active).to.equal(false);
      expect(device.inactive_reason).to.be.a('string').and.match(/410/);

      await armStopAt1000(app, user, 'HCLTECH');
      await publishPrices(app, { HCLTECH: 900 });
      const next = await executionOf(app, user, 'HCLTECH', settled);
      expect(badges(next)).to.deep.equal(['email sent']);
      expect(fake.receivedBy(subscription)).to.have.length(1);
    });

    for (const kind of ['digest', 'corporate_action'] as const)
      it(`a ${kind.replace('_', ' ')} notice reaches the device that ticked it, not the one that did not`, async () => {
        const user = await users.make();
        const ticked = await enablePush(app, fake, user);
        const unticked = await enablePush(app, fake, user);
        const others: NoticeKind[] = ['alert', 'digest', 'corporate_action'].filter(
          (k) => k !== kind,
        ) as NoticeKind[];
        const patch = await apiClient(app.url).patch(
          `/api/notification-endpoints/${unticked.endpoint.id}`,
          { notices: others },
          user.token,
        );
        expect(patch.status, patch.body.error).to.equal(200);
        await noticeOf(kind, user);
        await waitFor(`the ${kind} push`, () => shown(ticked.subscription).length === 1);
        await sleep(300);
        expect(fake.receivedBy(unticked.subscription)).to.deep.equal([]);
        const [payload] = shown(ticked.subscription);
        expect(payload!.title).to.equal(
          kind === 'digest' ? 'Evening digest' : 'BONUSPUSH bonus: rules adjusted',
        );
      });

    /** Records a digest or corporate-action notice for the user as its job would. */
    async function noticeOf(kind: 'digest' | 'corporate_action', user: SignedInUser) {
      const symbol = kind === 'digest' ? 'DIGESTPUSH' : 'BONUSPUSH';
      await armStopAt1000(app, user, symbol);
      if (kind === 'digest') {
        const digest = await recordDigest(
          { ...app.runtime.deps, deliveries: app.runtime.deliveries },
          { userId: user.id, day: '2025-12-19', nextDay: '2025-12-22' },
        );
        expect(digest?.deliveryIds).to.have.length(2); // the email and the ticked device
        return;
      }
      // A bonus going ex today adjusts the levels set before today's open.
      await app.runtime.deps.db
        .update(positionRules)
        .set({ levelsSetAt: sql`now() - interval '3 days'` })
        .where(eq(positionRules.userId, user.id));
      const today = new Date(Date.now() + 5.5 * 3600_000).toISOString().slice(0, 10);
      await app.runtime.deps.db
        .delete(corporateActions)
        .where(and(eq(corporateActions.symbol, symbol), eq(corporateActions.exchange, 'NSE')));
      await app.runtime.deps.db.insert(corporateActions).values({
        symbol,
        exchange: 'NSE',
        kind: 'BONUS',
        ratio: '2',
        purpose: 'BONUS 1:1',
        exDate: today,
        source: 'test',
      });
      const applied = await app.runtime.corporateActions.runOnce();
      expect(applied.map((a) => a.action.symbol)).to.include(symbol);
    }
  });
