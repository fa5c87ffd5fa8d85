/**
 * WhatsApp end to end (issue #30): an Advanced user verifies a number with the code the fake Graph
 * API carried; a published batch crosses their stop → one alert template message with the
 * notice's title, line and link → accepted with its wamid → the fake's signed status webhooks
 * (out of order, duplicated) → History shows WhatsApp read and the execution SUCCESS. A failure
 * Meta reports after accepting (131026) turns the number off and sends the fallback email. The
 * real delivery worker, polling and with BullMQ.
 */
import { expect } from 'chai';
import { whatsappSuite } from '../../helpers/fake-whatsapp.ts';
import { apiClient } from '../../helpers/http.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import { forgetUsers, publishPrices } from '../rules/support.ts';
import { addNumber, uniqueNumber } from '../whatsapp/support.ts';
import { armStopAt1000, badges, executionOf, listEndpoints } from './e2e-support.ts';
import { emailEndpointOf, outboxOf, setNotices } from './support.ts';

for (const withRedis of [false, true])
  describe(`end to end, WhatsApp: a crossing to a verified number (${withRedis ? 'BullMQ' : 'polling'})`, function () {
    this.timeout(60_000);
    const people: SignedInUser[] = [];
    // Before the suite's own hooks: its users go while the app still runs.
    after(() => forgetUsers(app, people.splice(0)));
    const { app, fake } = whatsappSuite({
      withRedis,
      embeddedStreamer: false,
      delivery: { pollMs: 50, retry: { baseDelayMs: 100, maxAttempts: 3 } },
    });

    /** An Advanced user with a number verified by the code WhatsApp carried. */
    async function verified(): Promise<{ user: SignedInUser; number: string; endpointId: string }> {
      const user = await signIn(app, { tier: 'advanced' });
      people.push(user);
      const number = uniqueNumber();
      const added = await addNumber(app, user.token, number);
      expect(added.status, added.body.error).to.equal(201);
      const endpointId = added.body.data!.id;
      const code = fake.codeSentTo(number);
      expect(code).to.match(/^\d{6}$/);
      const res = await apiClient(app.url).post(
        `/api/notification-endpoints/${endpointId}/verify`,
        { code },
        user.token,
      );
      expect(res.status, res.body.error).to.equal(200);
      return { user, number, endpointId };
    }

    const alertsTo = (number: string) =>
      fake.messages.filter((m) => m.to === number.slice(1) && m.template === 'portfolio_alert');

    it('a crossing: the alert template with its title, line and link, accepted; statuses out of order and twice → History: WhatsApp read, SUCCESS', async () => {
      const { user, number } = await verified();
      fake.planFor(number, { end: 'read', reversed: true, duplicates: true });
      await armStopAt1000(app, user, 'ASIANPAINT');
      await publishPrices(app, { ASIANPAINT: 900 });
      const execution = await executionOf(
        app,
        user,
        'ASIANPAINT',
        (e) => e.status !== 'PENDING' && badges(e).includes('whatsapp read'),
        'WhatsApp read in History',
      );
      await fake.settled();
      expect(execution.status).to.equal('SUCCESS');
      expect(badges(execution)).to.deep.equal(['email sent', 'whatsapp read']);
      const [message, ...more] = alertsTo(number);
      expect(more).to.deep.equal([]);
      expect(message!.status).to.equal(200);
      expect(message!.parameters[0]).to.equal('ASIANPAINT stop loss hit');
      expect(message!.parameters[1]).to.match(/^₹900\.00 crossed ₹950\.00 · \d{2}:\d{2} IST$/);
      expect(message!.parameters[2]).to.equal(`${app.runtime.deps.config.appUrl}/holdings?symbol=ASIANPAINT`);
      const rows = await outboxOf(app, execution.id);
      const whatsapp = rows.find((r) => r.channel === 'whatsapp')!;
      expect(whatsapp).to.deep.include({ status: 'READ', providerMessageId: message!.wamid });
      expect(message!.callbackData).to.equal(whatsapp.id);
      // Every webhook was taken (the code's three, then the alert's three statuses twice each).
      expect(fake.webhookPosts.map((p) => p.status)).to.deep.equal(Array(9).fill(200));
      const again = (await listEndpoints(app, user)).find((e) => e.type === 'whatsapp')!;
      expect(again.is_active).to.equal(true);
    });

    it('Meta fails the message after accepting it (131026): the number is turned off and the alert goes by email, once', async () => {
      const { user, number, endpointId } = await verified();
      const email = await emailEndpointOf(app, user);
      await setNotices(app, email.id, []);
      fake.planFor(number, { end: 'failed', failure: { code: 131026, title: 'Message undeliverable' } });
      await armStopAt1000(app, user, 'NESTLEIND');
      await publishPrices(app, { NESTLEIND: 900 });
      const execution = await executionOf(
        app,
        user,
        'NESTLEIND',
        (e) => e.status !== 'PENDING' && badges(e).includes('email sent'),
        'the fallback email sent',
      );
      await fake.settled();
      expect(execution.status).to.equal('SUCCESS');
      expect(badges(execution)).to.deep.equal(['email sent', 'whatsapp failed']);
      const rows = await outboxOf(app, execution.id);
      const whatsapp = rows.find((r) => r.channel === 'whatsapp')!;
      expect(whatsapp.status).to.equal('FAILED');
      expect(whatsapp.lastError).to.include('131026');
      const emails = rows.filter((r) => r.channel === 'email');
      expect(emails).to.have.length(1);
      expect(emails[0]).to.deep.include({ endpointId: email.id, status: 'SENT', fallbackOf: whatsapp.id });
      const endpoint = (await listEndpoints(app, user)).find((e) => e.id === endpointId)!;
      expect(endpoint.is_active).to.equal(false);
      expect(endpoint.inactive_reason).to.include('131026');
      expect(alertsTo(number)).to.have.length(1);
    });
  });
