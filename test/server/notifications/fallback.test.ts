import { expect } from 'chai';
import { inArray } from 'drizzle-orm';
import { devOutbox } from '../../../server/src/db/schema.ts';
import { insertFallbackEmails } from '../../../server/src/deliveries/fallback.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { crossStop, rulesSuite, settledExecution } from '../rules/support.ts';
import { addEndpoint, emailEndpointOf, outboxOf, scriptedSender, setNotices } from './support.ts';

for (const withRedis of [false, true])
  describe(`nothing lost: an alert whose phone deliveries all failed is emailed, once (${withRedis ? 'BullMQ' : 'polling'})`, () => {
    const push = scriptedSender('webpush');
    const { app, users } = rulesSuite({
      ownDatabase: true,
      withRedis,
      delivery: { pollMs: 50, retry: { baseDelayMs: 100, maxAttempts: 2 } },
      senders: () => [push.sender],
    });

    /** A user whose alerts go to the phone only (their email takes digests and corporate actions). */
    async function phoneOnly(): Promise<{ user: SignedInUser; email: { id: string; value: string } }> {
      const user = await users.make();
      const email = await emailEndpointOf(app, user);
      await setNotices(app, email.id, ['digest', 'corporate_action']);
      return { user, email };
    }

    const mailsTo = (address: string) =>
      app.runtime.deps.db
        .select()
        .from(devOutbox)
        .where(inArray(devOutbox.to, [address]));

    it('two devices failed for good: one email to the verified address, naming the first failure; SUCCESS', async () => {
      const { user, email } = await phoneOnly();
      const phone = await addEndpoint(app, user, 'webpush');
      const tablet = await addEndpoint(app, user, 'webpush');
      push.script(phone.value, {
        kind: 'gone',
        reason: 'HTTP 410: push subscription has unsubscribed or expired.',
      });
      push.script(
        tablet.value,
        { kind: 'retry', reason: 'HTTP 503: Service Unavailable' },
        { kind: 'retry', reason: 'HTTP 503: Service Unavailable' },
      );
      await crossStop(app, user, 'INFY');
      const execution = await settledExecution(app, user);
      expect(execution.status).to.equal('SUCCESS');
      const rows = await outboxOf(app, execution.id);
      const pushRows = rows.filter((r) => r.channel === 'webpush');
      expect(pushRows.map((r) => r.status)).to.deep.equal(['FAILED', 'FAILED']);
      const emails = rows.filter((r) => r.channel === 'email');
      expect(emails).to.have.length(1);
      const first = [...pushRows].sort(
        (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1),
      )[0]!;
      expect(emails[0]).to.deep.include({
        endpointId: email.id,
        destination: user.email,
        status: 'SENT',
        fallbackOf: first.id,
      });
      const mails = await mailsTo(user.email);
      expect(mails.map((m) => m.subject)).to.deep.equal([
        'Alert: INFY (NSE) Fixed stop loss 5% triggered at ₹900.00',
      ]);
      // Asked again (another instance recording a late failure): nothing more.
      expect(await insertFallbackEmails(app.runtime.deps.db, [execution.id])).to.deep.equal([]);
      expect((await outboxOf(app, execution.id)).filter((r) => r.channel === 'email')).to.have.length(1);
    });

    it('no email when one device took the alert', async () => {
      const { user } = await phoneOnly();
      const phone = await addEndpoint(app, user, 'webpush');
      await addEndpoint(app, user, 'webpush');
      push.script(phone.value, { kind: 'failed', reason: 'HTTP 400: Bad Request' });
      await crossStop(app, user, 'TCS');
      const execution = await settledExecution(app, user);
      const rows = await outboxOf(app, execution.id);
      expect(rows.map((r) => [r.channel, r.status]).sort()).to.deep.equal([
        ['webpush', 'ACCEPTED'],
        ['webpush', 'FAILED'],
      ]);
      expect(await mailsTo(user.email)).to.deep.equal([]);
    });

    it('no second email when the alert already had one', async () => {
      const user = await users.make();
      const phone = await addEndpoint(app, user, 'webpush');
      push.script(phone.value, { kind: 'failed', reason: 'HTTP 400: Bad Request' });
      await crossStop(app, user, 'SBIN');
      const execution = await settledExecution(app, user);
      const rows = await outboxOf(app, execution.id);
      expect(rows.map((r) => [r.channel, r.status, r.fallbackOf]).sort()).to.deep.equal([
        ['email', 'SENT', null],
        ['webpush', 'FAILED', null],
      ]);
      expect(await mailsTo(user.email)).to.have.length(1);
    });
  });
