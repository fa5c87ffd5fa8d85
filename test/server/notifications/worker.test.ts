import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { alertDeliveries, ruleExecutions } from '../../../server/src/db/schema.ts';
import { claimDeliveries } from '../../../server/src/deliveries/outbox.ts';
import { recordDigest } from '../../../server/src/digest/record.ts';
import type { Change } from '../../../server/src/events/changes.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { waitFor } from '../../helpers/wait.ts';
import { crossStop, listExecutions, listRules, rulesSuite, settledExecution } from '../rules/support.ts';
import {
  addEndpoint,
  emailEndpointOf,
  endpointRow,
  outboxOf,
  scriptedSender,
  setNotices,
} from './support.ts';

const APP_URL = 'http://app.example.test';

for (const withRedis of [false, true])
  describe(`delivery worker (${withRedis ? 'BullMQ' : 'polling'}): each channel to its sender, every outcome recorded`, () => {
    const push = scriptedSender('webpush');
    const { app, users } = rulesSuite({
      ownDatabase: true,
      withRedis,
      env: { APP_URL },
      delivery: { pollMs: 50, retry: { baseDelayMs: 100, maxAttempts: 3 } },
      senders: () => [push.sender],
    });

    const db = () => app.runtime.deps.db;

    /** The user's one alert once settled, with its outbox rows. */
    async function settled(user: SignedInUser) {
      const execution = await settledExecution(app, user);
      return { execution, rows: await outboxOf(app, execution.id) };
    }

    it('hands the push row to the webpush sender with the notice in words; ACCEPTED with its id; SUCCESS', async () => {
      const user = await users.make();
      const phone = await addEndpoint(app, user, 'webpush', { label: 'Chrome on Android' });
      await crossStop(app, user, 'INFY');
      const { execution, rows } = await settled(user);
      expect(execution.status).to.equal('SUCCESS');
      const [handed] = push.to(phone.value);
      const delivery = handed!.delivery;
      const [rule] = await listRules(app, user);
      const time = new Date(execution.executed_at).toLocaleTimeString('en-GB', {
        timeZone: 'Asia/Kolkata',
        hour: '2-digit',
        minute: '2-digit',
        hour12: false,
      });
      expect(delivery.text).to.deep.equal({
        kind: 'alert',
        title: 'INFY stop loss hit',
        body: `₹900.00 crossed ₹950.00 · ${time} IST`,
        url: 'http://app.example.test/holdings?symbol=INFY',
        tag: `rule-${rule!.id}`,
        protective: true,
        symbol: 'INFY',
      });
      expect(delivery).to.deep.include({ executionId: execution.id, userId: user.id, attempts: 1 });
      expect(delivery.endpoint).to.deep.equal({
        id: phone.id,
        value: phone.value,
        label: 'Chrome on Android',
        meta: { keys: { p256dh: 'BTestKey', auth: 'test-auth' } },
      });
      // One row per endpoint: its channel is the endpoint's type, its destination the endpoint's value.
      const pushRow = rows.find((r) => r.channel === 'webpush')!;
      expect(pushRow).to.deep.include({
        endpointId: phone.id,
        destination: phone.value,
        status: 'ACCEPTED',
        providerMessageId: `push-${pushRow.id}`,
      });
      expect(pushRow.statusAt).to.be.an.instanceOf(Date);
      expect(rows.find((r) => r.channel === 'email')).to.deep.include({
        destination: user.email,
        status: 'SENT',
      });
    });

    it('a throttled retry waits as told and gives its attempt back; an ordinary retry uses one up', async () => {
      const user = await users.make();
      const throttled = await addEndpoint(app, user, 'webpush');
      const flaky = await addEndpoint(app, user, 'webpush');
      const tooMany = {
        kind: 'retry',
        reason: 'HTTP 429: Too Many Requests',
        afterMs: 300,
        throttled: true,
      } as const;
      push.script(throttled.value, tooMany, tooMany);
      push.script(flaky.value, { kind: 'retry', reason: 'HTTP 503: Service Unavailable', afterMs: 50 });
      await crossStop(app, user, 'TCS');
      const { execution, rows } = await settled(user);
      expect(execution.status).to.equal('SUCCESS');
      const calls = push.to(throttled.value);
      expect(calls).to.have.length(3);
      expect(calls[1]!.at - calls[0]!.at).to.be.at.least(300);
      expect(calls[2]!.at - calls[1]!.at).to.be.at.least(300);
      expect(rows.find((r) => r.endpointId === throttled.id)).to.deep.include({
        status: 'ACCEPTED',
        attempts: 1,
      });
      expect(rows.find((r) => r.endpointId === flaky.id)).to.deep.include({
        status: 'ACCEPTED',
        attempts: 2,
      });
    });

    it('failed for good: FAILED with the reason, never retried; the alert, emailed, is sent and its push badge says why', async () => {
      const user = await users.make();
      const phone = await addEndpoint(app, user, 'webpush');
      push.script(phone.value, { kind: 'failed', reason: 'HTTP 413: Payload Too Large' });
      await crossStop(app, user, 'SBIN');
      const { execution, rows } = await settled(user);
      // The email reached the investor: the alert is sent; History's push badge carries the failure.
      expect(execution).to.deep.include({ status: 'SUCCESS', error_message: null });
      expect(execution.deliveries.find((d) => d.channel === 'webpush')).to.deep.include({
        status: 'failed',
        error: 'HTTP 413: Payload Too Large',
      });
      expect(rows.find((r) => r.endpointId === phone.id)).to.deep.include({ status: 'FAILED', attempts: 1 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(push.to(phone.value)).to.have.length(1);
    });

    it('gone: FAILED, the endpoint turned off with the reason (Settings told), and left out of the next alert', async () => {
      const user = await users.make();
      const phone = await addEndpoint(app, user, 'webpush');
      const told: Change[] = [];
      const stop = app.runtime.deps.events.subscribe((changes) => told.push(...changes));
      try {
        push.script(phone.value, {
          kind: 'gone',
          reason: 'HTTP 410: push subscription has unsubscribed or expired.',
        });
        await crossStop(app, user, 'ITC');
        const { rows } = await settled(user);
        expect(rows.find((r) => r.endpointId === phone.id)).to.deep.include({
          status: 'FAILED',
          lastError: 'HTTP 410: push subscription has unsubscribed or expired.',
        });
        expect(await endpointRow(app, phone.id)).to.deep.include({
          isActive: false,
          inactiveReason: 'HTTP 410: push subscription has unsubscribed or expired.',
        });
        await waitFor('Settings to be told', async () =>
          told.some((c) => c.type === 'endpoints' && c.userId === user.id) ? true : undefined,
        );
      } finally {
        stop();
      }
      await crossStop(app, user, 'LT');
      const [latest] = await waitFor('the second alert', async () => {
        const list = await listExecutions(app, user);
        return list.length === 2 && list[0]!.status !== 'PENDING' ? list : undefined;
      });
      const rows = await outboxOf(app, latest!.id);
      expect(rows.map((r) => r.channel)).to.deep.equal(['email']);
      expect(push.to(phone.value)).to.have.length(1);
    });

    it('a row of a channel with no sender here fails with a sentence saying so (and the alert is emailed)', async () => {
      const user = await users.make('advanced');
      const chat = await addEndpoint(app, user, 'telegram');
      const db = app.runtime.deps.db;
      const [execution] = await db
        .insert(ruleExecutions)
        .values({
          userId: user.id,
          symbol: 'WIPRO',
          exchange: 'NSE',
          triggerType: 'FIXED_STOP_LOSS',
          triggerPrice: '400',
          executionPrice: '399',
          message: 'WIPRO fell to ₹399.00, at or below your stop loss at ₹400.00',
        })
        .returning();
      const [row] = await db
        .insert(alertDeliveries)
        .values({
          executionId: execution!.id,
          endpointId: chat.id,
          channel: 'telegram',
          destination: chat.value,
        })
        .returning();
      app.runtime.deliveries.dispatch([row!.id]);
      const failed = await waitFor('the row to fail', async () => {
        const [r] = await outboxOf(app, execution!.id);
        return r?.status === 'FAILED' ? r : undefined;
      });
      expect(failed.lastError).to.equal('Telegram is not configured on this server');
      // Its only phone channel failed for good: the alert goes to the verified email instead.
      const settledRow = await waitFor('the alert to settle', async () => {
        const [e] = await db.select().from(ruleExecutions).where(eq(ruleExecutions.id, execution!.id));
        return e?.status === 'PENDING' ? undefined : e;
      });
      expect(settledRow.status).to.equal('SUCCESS');
      const rows = await outboxOf(app, execution!.id);
      expect(rows.map((r) => [r.channel, r.status, r.fallbackOf])).to.deep.equal([
        ['telegram', 'FAILED', null],
        ['email', 'SENT', row!.id],
      ]);
    });

    it('a row the provider accepted is never claimed again, even past its time', async () => {
      const user = await users.make();
      const phone = await addEndpoint(app, user, 'webpush');
      const db = app.runtime.deps.db;
      const [execution] = await db
        .insert(ruleExecutions)
        .values({
          userId: user.id,
          symbol: 'HDFCBANK',
          exchange: 'NSE',
          triggerType: 'FIXED_STOP_LOSS',
          triggerPrice: '400',
          executionPrice: '399',
          status: 'SUCCESS',
          message: 'HDFCBANK fell to ₹399.00, at or below your stop loss at ₹400.00',
        })
        .returning();
      const [row] = await db
        .insert(alertDeliveries)
        .values({
          id: randomUUID(),
          executionId: execution!.id,
          endpointId: phone.id,
          channel: 'webpush',
          destination: phone.value,
          status: 'ACCEPTED',
          attempts: 1,
          providerMessageId: 'push-accepted',
          nextAttemptAt: sql`now() - interval '1 hour'`,
        })
        .returning();
      expect(await claimDeliveries(db, { ids: [row!.id], lockMs: 60_000 })).to.deep.equal([]);
      app.runtime.deliveries.dispatch([row!.id]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(push.to(phone.value)).to.deep.equal([]);
      const [after] = await outboxOf(app, execution!.id);
      expect(after).to.deep.include({ status: 'ACCEPTED', attempts: 1, providerMessageId: 'push-accepted' });
    });

    it('an evening digest goes to the endpoints that chose digests, worded as one', async () => {
      const user = await users.make();
      const email = await emailEndpointOf(app, user);
      await setNotices(app, email.id, ['alert']);
      const phone = await addEndpoint(app, user, 'webpush', { notices: ['digest'] });
      const digest = await recordDigest(
        { ...app.runtime.deps, deliveries: app.runtime.deliveries },
        { userId: user.id, day: '2025-12-18', nextDay: '2025-12-19' },
      );
      expect(digest!.deliveryIds).to.have.length(1);
      await waitFor('the push', async () => (push.to(phone.value).length > 0 ? true : undefined));
      expect(push.to(phone.value)[0]!.delivery.text).to.deep.equal({
        kind: 'digest',
        title: 'Evening digest',
        body: 'Evening digest: 0 active rules, 0 firings today, 0 corporate actions on the next trading day.',
        url: 'http://app.example.test/history',
        tag: `digest-${user.id}`,
        protective: false,
        symbol: null,
      });
      const [row] = await db()
        .select()
        .from(alertDeliveries)
        .where(eq(alertDeliveries.id, digest!.deliveryIds[0]!));
      expect(row).to.deep.include({ channel: 'webpush', endpointId: phone.id });
    });
  });
