/**
 * Alert emails leave in batches: the deliveries due together reach SendGrid as one request
 * (one personalization each), in embedded mode (polling) and with Redis (BullMQ). The user-
 * visible checks: how many requests SendGrid got, what each recipient received, and each
 * execution's status in History; one bad address or a failing provider changes nothing else.
 */
import { expect } from 'chai';
import { bootApp } from '../../helpers/app.ts';
import { sendGridSuite } from '../../helpers/fake-sendgrid.ts';
import { userFactory } from '../rules/support.ts';
import { executionStatuses, seedDeliveries, type SeededDelivery } from './outbox-support.ts';
import { waitFor } from '../../helpers/wait.ts';

const USERS = 30;

for (const mode of ['poll', 'queue'] as const) {
  describe(`alert deliveries in batches (${mode === 'poll' ? 'embedded, polling' : 'BullMQ on Redis'})`, () => {
    const users = userFactory(() => app);
    const { app, fake } = sendGridSuite(
      {
        withRedis: mode === 'queue',
        embeddedStreamer: false,
        env: { APP_URL: 'http://app.example.test' },
        delivery: { pollMs: 100, retry: { baseDelayMs: 100, maxDelayMs: 100 } },
      },
      () => users.forget(),
    );
    let people: Awaited<ReturnType<typeof users.make>>[];

    before(async () => {
      expect(app.runtime.deliveries.mode).to.equal(mode);
      people = [];
      for (let i = 0; i < USERS; i++) people.push(await users.make());
    });

    /** Commits the outbox rows, tells the worker (as a trigger's commit does), waits for them to settle. */
    async function deliverAll(seeded: SeededDelivery[]) {
      app.runtime.deliveries.dispatch(seeded.map((s) => s.deliveryId));
      return waitFor('every execution to settle', async () => {
        const statuses = await executionStatuses(app, seeded);
        return [...statuses.values()].every((s) => s.status !== 'PENDING') ? statuses : undefined;
      });
    }

    const ours = (seeded: SeededDelivery[]) =>
      fake.requests.filter((r) => r.mails.some((m) => seeded.some((s) => s.user.email === m.to)));

    it(`${USERS} due deliveries: one SendGrid request, each user their own email, all SUCCESS`, async () => {
      const seeded = await seedDeliveries(app, people);
      const statuses = await deliverAll(seeded);
      expect([...statuses.values()].map((s) => s.status)).to.deep.equal(Array(USERS).fill('SUCCESS'));
      expect(ours(seeded).map((r) => [r.status, r.body.personalizations.length])).to.deep.equal([
        [202, USERS],
      ]);
      for (const { user, symbol } of seeded) {
        const mails = fake.mailsTo(user.email);
        expect(mails, user.email).to.have.length(1);
        expect(mails[0]!.subject).to.equal(`Alert: ${symbol} (NSE) Fixed stop loss triggered at ₹399.00`);
        expect(mails[0]!.text)
          .to.contain(`Hello ${user.name},`)
          .and.to.contain('http://app.example.test/holdings');
        expect(mails[0]!.html)
          .to.contain(`${symbol} (NSE)`)
          .and.not.to.match(/-[a-z]+[A-Za-z]*Html-/);
      }
    });

    it('a malformed address fails alone, with SendGrid’s reason; the others are sent', async () => {
      const seeded = await seedDeliveries(app, people, {
        destinationOf: (_, i) => (i === 7 ? 'not-an-address' : undefined),
      });
      const statuses = await deliverAll(seeded);
      const bad = seeded[7]!;
      expect(statuses.get(bad.executionId)!.status).to.equal('FAILED');
      expect(statuses.get(bad.executionId)!.error).to.match(
        /^HTTP 400: personalizations\.\d+\.to\.0\.email: Does not contain a valid address\.$/,
      );
      const others = seeded.filter((s) => s !== bad);
      expect(others.map((s) => statuses.get(s.executionId)!.status)).to.deep.equal(
        Array(USERS - 1).fill('SUCCESS'),
      );
      // The refused request, then the same batch without the bad address.
      expect(ours(seeded).map((r) => [r.status, r.body.personalizations.length])).to.deep.equal([
        [400, USERS],
        [202, USERS - 1],
      ]);
      for (const { user } of others) expect(fake.mailsTo(user.email), user.email).to.have.length(1);
    });

    it('two instances draining one outbox: each email sent once, every execution SUCCESS', async () => {
      const other = await bootApp({
        withRedis: mode === 'queue',
        embeddedStreamer: false,
        database: app.runtime.deps.database,
        env: { SENDGRID_API_KEY: 'SG.fake-key', SENDGRID_API_URL: fake.url },
        delivery: { pollMs: 100, batchSize: 7 },
      });
      try {
        const seeded = await seedDeliveries(app, people);
        other.runtime.deliveries.dispatch(seeded.map((s) => s.deliveryId));
        const statuses = await deliverAll(seeded);
        expect([...statuses.values()].map((s) => s.status)).to.deep.equal(Array(USERS).fill('SUCCESS'));
        for (const { user } of seeded) expect(fake.mailsTo(user.email), user.email).to.have.length(1);
      } finally {
        await other.close();
      }
    });

    it('a 503 for the batch retries everyone after the back-off; each email is sent once', async () => {
      fake.script(503);
      const seeded = await seedDeliveries(app, people);
      const statuses = await deliverAll(seeded);
      expect([...statuses.values()].map((s) => s.status)).to.deep.equal(Array(USERS).fill('SUCCESS'));
      expect(ours(seeded).map((r) => [r.status, r.body.personalizations.length])).to.deep.equal([
        [503, USERS],
        [202, USERS],
      ]);
      for (const { user } of seeded) expect(fake.mailsTo(user.email), user.email).to.have.length(1);
    });
  });
}
