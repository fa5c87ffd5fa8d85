/**
 * Telegram end to end (issue #30): an Advanced user binds a chat through the fake Bot API's
 * `/start`; a published batch crosses three of their stops → one Telegram message lists the three
 * (HTML escaped: M&M arrives as M&M), every delivery SENT; a user moved to Basic after binding
 * gets nothing on Telegram; a blocked bot (403) turns the chat off and the alert's fallback email
 * goes, once. The real delivery worker, polling and with BullMQ.
 */
import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { users } from '../../../server/src/db/schema.ts';
import { setUserTier } from '../../../server/src/users/set-tier.ts';
import { telegramSuite } from '../../helpers/telegram-suite.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import { sleep } from '../../helpers/wait.ts';
import { forgetUsers, publishPrices } from '../rules/support.ts';
import { armStopAt1000, badges, connectTelegram, executionOf, listEndpoints } from './e2e-support.ts';
import { emailEndpointOf, outboxOf, setNotices } from './support.ts';

let nextChat = 700_000_000 + Math.floor(Math.random() * 1_000_000) * 100;

const settled = (e: { status: string }) => e.status !== 'PENDING';

/**
 * Each worker as configured, then with batches of two rows, so that a chat's three notices fall
 * in different batches (or BullMQ jobs): the claim takes the chat's due rows together.
 */
const VARIANTS = [
  { withRedis: false },
  { withRedis: true },
  { withRedis: false, batchSize: 2 },
  { withRedis: true, batchSize: 2 },
];

for (const { withRedis, batchSize } of VARIANTS)
  describe(`end to end, Telegram: crossings to a chat (${withRedis ? 'BullMQ' : 'polling'}${batchSize ? `, batches of ${batchSize}` : ''})`, function () {
    this.timeout(60_000);
    const people: SignedInUser[] = [];
    // Before the suite's own hooks: its users go while the app still runs.
    after(() => forgetUsers(app, people.splice(0)));
    const { app, fake } = telegramSuite({
      withRedis,
      embeddedStreamer: false,
      delivery: {
        pollMs: 50,
        retry: { baseDelayMs: 100, maxAttempts: 3 },
        ...(batchSize ? { batchSize } : {}),
      },
    });

    /** An Advanced user whose chat pressed Start on their Connect link. */
    async function connected(): Promise<{ user: SignedInUser; chat: number; endpointId: string }> {
      const user = await signIn(app, { tier: 'advanced' });
      people.push(user);
      const chat = ++nextChat;
      const endpoint = await connectTelegram(app, fake, user, chat);
      return { user, chat, endpointId: endpoint.id };
    }

    /** The alert messages of a chat (its welcome left out). */
    const alertsTo = (chat: number) => fake.messagesTo(chat).filter((m) => !m.text.startsWith('Connected'));

    it('three stops of one user crossed in one batch: ONE message lists them, M&M as written; the deliveries SENT', async () => {
      const { user, chat } = await connected();
      for (const symbol of ['M&M', 'TATASTEEL', 'SBIN']) await armStopAt1000(app, user, symbol);
      await publishPrices(app, { 'M&M': 900, TATASTEEL: 900, SBIN: 900 });
      for (const symbol of ['M&M', 'TATASTEEL', 'SBIN']) {
        const execution = await executionOf(app, user, symbol, settled);
        expect(execution.status).to.equal('SUCCESS');
        expect(badges(execution)).to.deep.equal(['email sent', 'telegram sent']);
        expect(execution.deliveries.find((d) => d.channel === 'telegram')!.label).to.equal('@asha_k');
      }
      const [message, ...more] = alertsTo(chat);
      expect(more).to.deep.equal([]);
      expect(message!.parseMode).to.equal('HTML');
      const titles = message!.entities
        .filter((e) => e.type === 'bold')
        .map((e) => message!.text.substr(e.offset, e.length))
        .sort();
      expect(titles).to.deep.equal(['M&M stop loss hit', 'SBIN stop loss hit', 'TATASTEEL stop loss hit']);
      expect(message!.text).to.match(/M&M stop loss hit\n₹900\.00 crossed ₹950\.00 · \d{2}:\d{2} IST/);
      expect(message!.sentText).to.include('M&amp;M stop loss hit');
    });

    if (batchSize) return; // the rest does not depend on the batch size

    it('a user moved to Basic after binding (npm run user:tier) gets nothing on Telegram: the email alone', async () => {
      const { user, chat, endpointId } = await connected();
      await setUserTier(app.runtime.deps.db, { email: user.email, tier: 'basic' });
      await armStopAt1000(app, user, 'ITC');
      await publishPrices(app, { ITC: 900 });
      const execution = await executionOf(app, user, 'ITC', settled);
      expect(badges(execution)).to.deep.equal(['email sent']);
      await sleep(300);
      expect(alertsTo(chat)).to.deep.equal([]);
      const endpoint = (await listEndpoints(app, user)).find((e) => e.id === endpointId)!;
      expect(endpoint).to.deep.include({
        is_active: false,
        inactive_reason: 'Messaging apps are on the Advanced tier',
      });
    });

    it('a Basic user whose Telegram endpoint is still on (tier changed in the database) gets nothing on Telegram', async () => {
      const { user, chat } = await connected();
      await app.runtime.deps.db.update(users).set({ subscriptionTier: 'basic' }).where(eq(users.id, user.id));
      await armStopAt1000(app, user, 'BPCL');
      await publishPrices(app, { BPCL: 900 });
      const execution = await executionOf(app, user, 'BPCL', settled);
      expect(badges(execution)).to.deep.equal(['email sent']);
      await sleep(300);
      expect(alertsTo(chat)).to.deep.equal([]);
    });

    it('the user blocked the bot (403): the chat is turned off and the alert goes by email once, as its fallback', async () => {
      const { user, chat, endpointId } = await connected();
      const email = await emailEndpointOf(app, user);
      await setNotices(app, email.id, []);
      fake.setChat(chat, 'blocked');
      await armStopAt1000(app, user, 'HDFCBANK');
      await publishPrices(app, { HDFCBANK: 900 });
      const execution = await executionOf(
        app,
        user,
        'HDFCBANK',
        (e) => e.status !== 'PENDING' && badges(e).includes('email sent'),
        'the fallback email sent',
      );
      expect(execution.status).to.equal('SUCCESS');
      expect(badges(execution)).to.deep.equal(['email sent', 'telegram failed']);
      const rows = await outboxOf(app, execution.id);
      const telegram = rows.find((r) => r.channel === 'telegram')!;
      expect(telegram.status).to.equal('FAILED');
      expect(telegram.lastError).to.include('bot was blocked by the user');
      const emails = rows.filter((r) => r.channel === 'email');
      expect(emails).to.have.length(1);
      expect(emails[0]).to.deep.include({ endpointId: email.id, status: 'SENT', fallbackOf: telegram.id });
      expect(fake.sendsTo(chat).filter((c) => c.status === 403)).to.have.length(1);
      const endpoint = (await listEndpoints(app, user)).find((e) => e.id === endpointId)!;
      expect(endpoint.is_active).to.equal(false);
      expect(endpoint.inactive_reason).to.be.a('string').and.not.equal('');
    });
  });
