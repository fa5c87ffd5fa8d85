import { expect } from 'chai';
import { MailPermanentError, MailTransientError } from '../../../server/src/mail/mailer.ts';
import { sendWithRetry } from '../../../server/src/mail/retry.ts';
import { createSendGridMailer } from '../../../server/src/mail/sendgrid.ts';
import { sendGridErrorBody, startFakeSendGrid, type FakeSendGrid } from '../../helpers/fake-sendgrid.ts';
import { messageTo, rejection } from './support.ts';

const API_KEY = 'SG.test-key-for-the-fake';
const message = messageTo('asha@example.com', 'Verify your email');

describe('SendGrid mailer against a local fake', () => {
  let fake: FakeSendGrid;
  const mailer = () =>
    createSendGridMailer({ apiKey: API_KEY, apiUrl: fake.url, from: 'Portfolio Guard <alerts@pg.example>' });

  before(async () => {
    fake = await startFakeSendGrid();
  });
  beforeEach(() => fake.reset());
  after(() => fake.close());

  it('202: sends to, from, subject and both content types with the bearer key', async () => {
    fake.script(202);
    await mailer().send(message);
    expect(fake.requests).to.have.length(1);
    const [req] = fake.requests;
    expect(req!.path).to.equal('/v3/mail/send');
    expect(req!.headers.authorization).to.equal(`Bearer ${API_KEY}`);
    expect(req!.body.personalizations[0]!.to).to.deep.equal([{ email: 'asha@example.com' }]);
    expect(req!.body.from).to.deep.equal({ email: 'alerts@pg.example', name: 'Portfolio Guard' });
    expect(req!.body.subject).to.equal('Verify your email');
    expect(req!.body.content).to.deep.equal([
      { type: 'text/plain', value: 'plain body' },
      { type: 'text/html', value: '<p>html body</p>' },
    ]);
  });

  it('429: a transient error carrying Retry-After', async () => {
    fake.script({
      status: 429,
      headers: { 'retry-after': '3' },
      body: sendGridErrorBody('Too many requests'),
    });
    const err = await rejection(mailer().send(message));
    expect(err).to.be.instanceOf(MailTransientError);
    expect((err as MailTransientError).retryAfterMs).to.equal(3000);
  });

  it('500: a transient error', async () => {
    fake.script(500);
    const err = await rejection(mailer().send(message));
    expect(err).to.be.instanceOf(MailTransientError);
    expect((err as MailTransientError).reason).to.contain('HTTP 500');
  });

  it("400: a permanent error carrying SendGrid's reason", async () => {
    fake.script({
      status: 400,
      body: sendGridErrorBody('Does not contain a valid address.', 'personalizations.0.to.0.email'),
    });
    const err = await rejection(mailer().send(message));
    expect(err).to.be.instanceOf(MailPermanentError);
    expect((err as MailPermanentError).reason).to.equal(
      'HTTP 400: personalizations.0.to.0.email: Does not contain a valid address.',
    );
  });

  it('401 (a bad key) is permanent too', async () => {
    fake.script({ status: 401, body: sendGridErrorBody('The provided authorization grant is invalid') });
    expect(await rejection(mailer().send(message))).to.be.instanceOf(MailPermanentError);
  });

  it('no answer within the timeout, or nobody listening: transient', async () => {
    fake.script({ status: 202, delayMs: 2000 });
    const slow = createSendGridMailer({
      apiKey: API_KEY,
      apiUrl: fake.url,
      from: 'a@pg.example',
      timeoutMs: 150,
    });
    expect(await rejection(slow.send(message))).to.be.instanceOf(MailTransientError);
    const closed = await startFakeSendGrid();
    await closed.close();
    const nobody = createSendGridMailer({ apiKey: API_KEY, apiUrl: closed.url, from: 'a@pg.example' });
    expect(await rejection(nobody.send(message))).to.be.instanceOf(MailTransientError);
  });

  it('sendWithRetry: 429 then 202 delivers exactly once', async () => {
    fake.script(429, 202);
    await sendWithRetry(mailer(), message, { attempts: 3, baseDelayMs: 10 });
    expect(fake.requests.map((r) => r.status)).to.deep.equal([429, 202]);
  });

  it('sendWithRetry: a permanent error is not retried; transient ones stop after the attempts', async () => {
    fake.script(400);
    expect(
      await rejection(sendWithRetry(mailer(), message, { attempts: 3, baseDelayMs: 10 })),
    ).to.be.instanceOf(MailPermanentError);
    expect(fake.requests).to.have.length(1);
    fake.reset();
    fake.script(500, 503, 502);
    expect(
      await rejection(sendWithRetry(mailer(), message, { attempts: 3, baseDelayMs: 10 })),
    ).to.be.instanceOf(MailTransientError);
    expect(fake.requests).to.have.length(3);
  });
});
