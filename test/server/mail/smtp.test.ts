import { expect } from 'chai';
import type { MailBatch } from '../../../server/src/mail/batch.ts';
import { MailPermanentError, MailTransientError } from '../../../server/src/mail/mailer.ts';
import { classifySmtpError, createSmtpMailer } from '../../../server/src/mail/smtp.ts';
import { startFakeSmtp, type FakeSmtp } from './fake-smtp.ts';
import { messageTo, rejection } from './support.ts';

const message = messageTo('ravi@example.com', 'Alert: INFY');

describe('SMTP mailer against a local fake', () => {
  let smtp: FakeSmtp;
  before(async () => {
    smtp = await startFakeSmtp();
  });
  after(() => smtp.close());

  it('delivers a multipart message with both bodies', async () => {
    await createSmtpMailer({ url: smtp.url, from: 'alerts@pg.example' }).send(message);
    const raw = smtp.messages.at(-1)!;
    expect(raw).to.match(/^To: ravi@example\.com/m);
    expect(raw).to.match(/^Subject: Alert: INFY/m);
    expect(raw).to.contain('text/plain').and.to.contain('text/html');
  });

  it('a 4xx reply is transient, a 5xx reply permanent (SMTP semantics)', async () => {
    const mailer = createSmtpMailer({ url: smtp.url, from: 'alerts@pg.example' });
    smtp.scriptRcpt(450);
    const soft = await rejection(mailer.send(message));
    expect(soft).to.be.instanceOf(MailTransientError);
    expect((soft as MailTransientError).reason).to.contain('SMTP 450');
    smtp.scriptRcpt(550);
    const hard = await rejection(mailer.send(message));
    expect(hard).to.be.instanceOf(MailPermanentError);
    expect((hard as MailPermanentError).reason).to.contain('SMTP 550');
  });

  it('a refused connection is transient', async () => {
    const gone = await startFakeSmtp();
    await gone.close();
    const err = await rejection(createSmtpMailer({ url: gone.url, from: 'alerts@pg.example' }).send(message));
    expect(err).to.be.instanceOf(MailTransientError);
  });

  it('a batch goes through a pool: 20 emails over at most 2 connections, each filled in for its recipient', async () => {
    const pooled = await startFakeSmtp();
    const mailer = createSmtpMailer({
      url: pooled.url,
      from: 'alerts@pg.example',
      pool: { maxConnections: 2, maxMessages: 100 },
    });
    try {
      const batch: MailBatch = {
        template: { text: 'Hello -name-, -symbol- fell.', html: '<p>Hello -nameHtml-</p>' },
        recipients: Array.from({ length: 20 }, (_, i) => ({
          to: `r${i}@example.com`,
          subject: `Alert ${i}`,
          substitutions: { name: `R${i}`, nameHtml: `R${i}`, symbol: 'TCS' },
        })),
      };
      pooled.scriptRcpt(...Array(5).fill(250), 550);
      const outcomes = await mailer.sendBatch(batch);
      expect(outcomes.filter((o) => o.kind === 'sent')).to.have.length(19);
      const refused = outcomes.filter((o) => o.kind === 'failed');
      expect(refused).to.have.length(1);
      expect((refused[0] as { error: unknown }).error).to.be.instanceOf(MailPermanentError);
      expect(pooled.messages).to.have.length(19);
      expect(pooled.messages.some((m) => /Hello R\d+, TCS fell\./.test(m))).to.equal(true);
      expect(pooled.connections.opened).to.be.at.most(2);
    } finally {
      mailer.close();
      await pooled.close();
    }
  });

  it('classifies by code, never by message text', () => {
    expect(classifySmtpError({ code: 'ETIMEDOUT', message: 'permanent?' })).to.be.instanceOf(
      MailTransientError,
    );
    expect(classifySmtpError({ code: 'EAUTH', responseCode: 535, message: 'try again' })).to.be.instanceOf(
      MailPermanentError,
    );
    expect(classifySmtpError({ code: 'EENVELOPE', message: 'No recipients defined' })).to.be.instanceOf(
      MailPermanentError,
    );
  });
});
