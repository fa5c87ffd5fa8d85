import { expect } from 'chai';
import { appSuite, bootApp } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import { signIn } from '../../helpers/users.ts';
import { addEndpoint, outboxFor, uniqueEmail } from '../endpoints/support.ts';

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  sentAt: string;
}

describe('dev outbox', () => {
  describe('in demo mode', () => {
    const { app } = appSuite();

    it('stores what the outbox mailer sends and lists it newest first, filtered by ?to=', async () => {
      const { mailer } = app.runtime.deps;
      expect(mailer.kind).to.equal('outbox');
      const to = `outbox-${Date.now()}@example.com`;
      await mailer.send({ to, subject: 'first', text: 't1', html: '<p>1</p>' });
      await mailer.send({ to, subject: 'second', text: 't2', html: '<p>2</p>' });
      await mailer.send({ to: `other-${to}`, subject: 'elsewhere', text: 't', html: '<p></p>' });

      const res = await apiClient(app.url).get<OutboxMail[]>(
        `/api/dev/outbox?to=${encodeURIComponent(to.toUpperCase())}`,
      );
      expect(res.status).to.equal(200);
      expect(res.body.success).to.equal(true);
      const mails = res.body.data!;
      expect(mails.map((m) => m.subject)).to.deep.equal(['second', 'first']);
      expect(mails[0]).to.have.all.keys('to', 'subject', 'text', 'html', 'sentAt');
      expect(mails[0]).to.include({ to, text: 't2', html: '<p>2</p>' });
      expect(Date.parse(mails[0]!.sentAt)).to.be.at.least(Date.parse(mails[1]!.sentAt));

      const all = await apiClient(app.url).get<OutboxMail[]>('/api/dev/outbox');
      expect(all.body.data!.map((m) => m.subject)).to.include.members(['first', 'second', 'elsewhere']);
    });

    it('stores a batch in one go, each message filled in for its recipient, in batch order', async () => {
      const to = `batch-${Date.now()}@example.com`;
      const outcomes = await app.runtime.deps.mailer.sendBatch({
        template: { text: 'Hi -name-', html: '<p>Hi -nameHtml-</p>' },
        recipients: [
          { to, subject: 'one', substitutions: { name: 'A & B', nameHtml: 'A &amp; B' } },
          { to, subject: 'two', substitutions: { name: 'C', nameHtml: 'C' } },
        ],
      });
      expect(outcomes).to.deep.equal([{ kind: 'sent' }, { kind: 'sent' }]);
      const res = await apiClient(app.url).get<OutboxMail[]>(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
      expect(res.body.data!.map((m) => [m.subject, m.text, m.html])).to.deep.equal([
        ['two', 'Hi C', '<p>Hi C</p>'],
        ['one', 'Hi A & B', '<p>Hi A &amp; B</p>'],
      ]);
    });
  });

  it('is shared by every instance on one database: sent through one, listed by the other', async () => {
    const first = await bootApp();
    const second = await bootApp({ database: first.runtime.deps.database });
    try {
      const to = `shared-${Date.now()}@example.com`;
      await first.runtime.deps.mailer.send({ to, subject: 'from the first', text: 't', html: '<p>t</p>' });
      const listed = await apiClient(second.url).get<OutboxMail[]>(
        `/api/dev/outbox?to=${encodeURIComponent(to)}`,
      );
      expect(listed.status).to.equal(200);
      expect(listed.body.data!.map((m) => [m.to, m.subject])).to.deep.equal([[to, 'from the first']]);
      // And through the API of the other instance: a verification email sent by the second.
      const user = await signIn(second);
      const address = uniqueEmail('shared');
      expect((await addEndpoint(second, user.token, { value: address })).status).to.equal(201);
      const mails = await outboxFor(first, address);
      expect(mails).to.have.length(1);
      expect(mails[0]!.text).to.contain('/verify-endpoint?token=');
    } finally {
      await second.close();
      await first.close();
    }
  });

  it('is 404 outside demo mode', async () => {
    const app = await bootApp({ env: { DEMO_MODE: 'false', GOOGLE_CLIENT_ID: 'test-client.apps.example' } });
    try {
      const res = await apiClient(app.url).get('/api/dev/outbox');
      expect(res.status).to.equal(404);
      expect(res.body.success).to.equal(false);
    } finally {
      await app.close();
    }
  });
});
