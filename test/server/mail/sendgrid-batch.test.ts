import { expect } from 'chai';
import { batchMessage, type MailBatch } from '../../../server/src/mail/batch.ts';
import { MailPermanentError, MailTransientError } from '../../../server/src/mail/mailer.ts';
import { createSendGridMailer } from '../../../server/src/mail/sendgrid.ts';
import { alertEmailFields, alertEmailTemplate } from '../../../server/src/mail/templates/alert.ts';
import { startFakeSendGrid, type FakeSendGrid } from '../../helpers/fake-sendgrid.ts';

const APP_URL = 'http://app.example.test';

/** `n` alert emails, each to its own address unless `to` says otherwise. */
function alertBatch(n: number, to: (i: number) => string = (i) => `investor-${i}@example.com`) {
  const inputs = Array.from({ length: n }, (_, i) => ({
    userName: `Investor <${i}> & "co"`,
    symbol: i % 2 ? 'TCS' : 'INFY',
    exchange: 'NSE',
    ruleLabel: `Fixed stop loss ${1 + (i % 9)}%`,
    triggerPrice: 1000 + i,
    ltp: 990 + i / 100,
    triggeredAt: new Date(Date.UTC(2024, 5, 4, 4, 0, i % 60)),
    appUrl: APP_URL,
    overQuota: i % 7 === 0,
  }));
  const batch: MailBatch = {
    template: alertEmailTemplate(APP_URL),
    recipients: inputs.map((input, i) => ({ to: to(i), ...alertEmailFields(input) })),
  };
  return { batch, inputs };
}

describe('SendGrid mailer: batches against the local fake', () => {
  let fake: FakeSendGrid;
  const mailer = (apiKey = 'SG.fake-key', url = fake.url) =>
    createSendGridMailer({ apiKey, apiUrl: url, from: 'Portfolio Guard <alerts@pg.example>' });

  before(async () => {
    fake = await startFakeSendGrid();
  });
  beforeEach(() => fake.reset());
  after(() => fake.close());

  it('2,500 emails: three requests (1,000, 1,000, 500); each recipient gets exactly the email SMTP and the outbox would send', async () => {
    const { batch } = alertBatch(2500);
    const outcomes = await mailer().sendBatch(batch);
    expect(outcomes.every((o) => o.kind === 'sent')).to.equal(true);
    expect(fake.requests.map((r) => [r.status, r.body.personalizations.length]).sort()).to.deep.equal([
      [202, 1000],
      [202, 1000],
      [202, 500],
    ]);
    for (const i of [0, 7, 999, 1000, 2499]) {
      const [mail] = fake.mailsTo(`investor-${i}@example.com`);
      expect(mail).to.deep.equal(batchMessage(batch, i));
    }
  });

  it('an address twice in a batch goes in two requests (SendGrid wants each address once per request)', async () => {
    const { batch } = alertBatch(4, (i) => (i < 2 ? 'same@example.com' : `other-${i}@example.com`));
    const outcomes = await mailer().sendBatch(batch);
    expect(outcomes.map((o) => o.kind)).to.deep.equal(['sent', 'sent', 'sent', 'sent']);
    expect(fake.requests.map((r) => r.mails.map((m) => m.to))).to.have.deep.members([
      ['same@example.com', 'other-2@example.com', 'other-3@example.com'],
      ['same@example.com'],
    ]);
    expect(fake.mailsTo('same@example.com').map((m) => m.subject)).to.have.members([
      batch.recipients[0]!.subject,
      batch.recipients[1]!.subject,
    ]);
  });

  it('one malformed address: it fails permanently with SendGrid’s reason, the other 999 are sent', async () => {
    const { batch } = alertBatch(1000, (i) =>
      i === 417 ? 'investor-417@@example' : `investor-${i}@example.com`,
    );
    const outcomes = await mailer().sendBatch(batch);
    const failed = outcomes[417]!;
    expect(failed.kind).to.equal('failed');
    const error = (failed as { error: MailPermanentError }).error;
    expect(error).to.be.instanceOf(MailPermanentError);
    expect(error.reason).to.equal(
      'HTTP 400: personalizations.417.to.0.email: Does not contain a valid address.',
    );
    expect(outcomes.filter((o) => o.kind === 'sent')).to.have.length(999);
    expect(fake.requests.map((r) => [r.status, r.body.personalizations.length])).to.deep.equal([
      [400, 1000],
      [202, 999],
    ]);
  });

  it('413 (over the size limit): halved until each part fits, all sent', async () => {
    const small = await startFakeSendGrid({ maxBodyBytes: 60_000 });
    try {
      const { batch } = alertBatch(100);
      const outcomes = await mailer('SG.fake-key', small.url).sendBatch(batch);
      expect(outcomes.every((o) => o.kind === 'sent')).to.equal(true);
      const accepted = small.requests.filter((r) => r.status === 202);
      expect(accepted.reduce((n, r) => n + r.body.personalizations.length, 0)).to.equal(100);
      expect(accepted.length).to.be.greaterThan(1);
      for (let i = 0; i < 100; i++) expect(small.mailsTo(`investor-${i}@example.com`)).to.have.length(1);
    } finally {
      await small.close();
    }
  });

  it('429: every recipient transient, waiting until X-RateLimit-Reset', async () => {
    const reset = Math.ceil(Date.now() / 1000) + 30;
    fake.script({ status: 429, headers: { 'x-ratelimit-reset': String(reset) } });
    const outcomes = await mailer().sendBatch(alertBatch(3).batch);
    for (const outcome of outcomes) {
      expect(outcome.kind).to.equal('failed');
      const error = (outcome as { error: MailTransientError }).error;
      expect(error).to.be.instanceOf(MailTransientError);
      expect(error.reason).to.equal('HTTP 429: too many requests');
      expect(error.retryAfterMs).to.be.within(25_000, 31_000);
    }
    expect(fake.requests).to.have.length(1);
  });

  it('a bad key (401) fails the whole batch permanently, in one request', async () => {
    const outcomes = await mailer('SG.revoked-key').sendBatch(alertBatch(5).batch);
    expect(fake.requests.map((r) => r.status)).to.deep.equal([401]);
    for (const outcome of outcomes) {
      const error = (outcome as { error: MailPermanentError }).error;
      expect(error).to.be.instanceOf(MailPermanentError);
      expect(error.reason).to.equal(
        'HTTP 401: The provided authorization grant is invalid, expired, or revoked',
      );
    }
  });

  it('the fake refuses more than 1,000 personalizations as SendGrid does', async () => {
    const personalizations = Array.from({ length: 1001 }, (_, i) => ({
      to: [{ email: `p${i}@example.com` }],
    }));
    const res = await fetch(`${fake.url}/v3/mail/send`, {
      method: 'POST',
      headers: { authorization: 'Bearer SG.fake-key', 'content-type': 'application/json' },
      body: JSON.stringify({
        personalizations,
        from: { email: 'alerts@pg.example' },
        subject: 's',
        content: [{ type: 'text/plain', value: 't' }],
      }),
    });
    expect(res.status).to.equal(400);
    expect(await res.json()).to.deep.equal({
      errors: [
        {
          message:
            'The personalization block is limited to 1000 personalizations per API request. You have provided 1001 personalizations. Please consider splitting this into multiple requests and resending your request.',
          field: 'personalizations',
          help: null,
        },
      ],
    });
  });
});
