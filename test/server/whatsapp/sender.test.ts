/**
 * The WhatsApp sender against the fake Graph API (docs/notifications.md#whatsapp): what it sends
 * (the alert template, its three parameters in order, the number without '+', the delivery id as
 * `biz_opaque_callback_data`) and the outcome of each of Meta's answers.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { expect } from 'chai';
import { parseConfig } from '@app/config';
import { createWhatsAppSender } from '../../../server/src/channels/whatsapp/sender.ts';
import type { OutgoingDelivery } from '../../../server/src/notifications/channel.ts';
import {
  FAKE_WHATSAPP,
  startFakeWhatsApp,
  whatsappEnv,
  type FakeWhatsApp,
} from '../../helpers/fake-whatsapp.ts';
import { captureLog } from '../../helpers/log.ts';
import { uniqueNumber } from './support.ts';

function delivery(number: string, text: Partial<OutgoingDelivery['text']> = {}): OutgoingDelivery {
  return {
    id: randomUUID(),
    executionId: randomUUID(),
    userId: randomUUID(),
    attempts: 1,
    endpoint: { id: randomUUID(), value: number, label: null, meta: null },
    text: {
      kind: 'alert',
      title: 'M&M stop loss hit',
      body: '₹1,234.50 crossed ₹1,240.00 · 10:41 IST',
      url: 'https://guard.example.com/holdings/NSE/M%26M',
      tag: 'rule-1',
      protective: true,
      symbol: 'M&M',
      ...text,
    },
  };
}

describe('WhatsApp sender vs the fake Graph API', () => {
  let fake: FakeWhatsApp;
  before(async () => {
    fake = await startFakeWhatsApp();
  });
  beforeEach(() => fake.reset());
  after(() => fake.close());

  const senderFor = (env: Record<string, string> = {}) => {
    const capture = captureLog();
    const whatsapp = parseConfig({ ...whatsappEnv(fake.url), ...env }).whatsapp!;
    return { sender: createWhatsAppSender({ whatsapp, log: capture.log }), lines: capture.lines };
  };

  it('sends the alert template with title, line and link; 200 is accepted with the wamid', async () => {
    const { sender } = senderFor();
    const number = uniqueNumber();
    const one = delivery(number, { body: 'line one\nline two' });
    const [outcome] = await sender.send([one]);
    const [message] = fake.messages;
    expect(outcome).to.deep.equal({ kind: 'accepted', providerMessageId: message!.wamid });
    expect(message!.wamid).to.match(/^wamid\./);
    expect(message).to.include({
      to: number.slice(1),
      template: FAKE_WHATSAPP.alertTemplate.name,
      callbackData: one.id,
      status: 200,
    });
    expect(message!.body).to.include({ messaging_product: 'whatsapp', type: 'template' });
    // Meta refuses a newline inside a parameter (132018): it became one line.
    expect(message!.parameters).to.deep.equal([
      'M&M stop loss hit',
      'line one · line two',
      'https://guard.example.com/holdings/NSE/M%26M',
    ]);
  });

  it('sorts Meta’s refusals by code: throttled, again later, gone, failed', async () => {
    const { sender, lines } = senderFor();
    const numbers = Array.from({ length: 6 }, uniqueNumber);
    const codes = [130429, 131056, 131057, 131026, 190, 131000];
    codes.forEach((code, i) => fake.failNext(code, { to: numbers[i] }));
    const outcomes = await sender.send(numbers.map((n) => delivery(n)));
    expect(outcomes.map((o) => o.kind)).to.deep.equal(['retry', 'retry', 'retry', 'gone', 'failed', 'retry']);
    expect(outcomes[0]).to.include({ throttled: true });
    expect(outcomes[1]).to.include({ throttled: true, afterMs: 6000 });
    expect(outcomes[2]).to.include({ afterMs: 60_000 });
    expect(outcomes[2]).to.not.have.property('throttled');
    expect(outcomes[3]).to.deep.equal({ kind: 'gone', reason: 'WhatsApp 131026: Message Undeliverable' });
    expect(outcomes[5]).to.not.have.property('afterMs');
    // A bad token is the operator's to fix: logged as configuration.
    const config = lines.filter((l) => l.level === 50 && /configuration/.test(l.msg));
    expect(config).to.have.length(1);
    expect(config[0]).to.include({ code: 190 });
  });

  it('a template that does not match (132001, 132000) fails for good', async () => {
    const unknown = senderFor({ WHATSAPP_ALERT_TEMPLATE: 'not_approved:en' }).sender;
    const [refused] = await unknown.send([delivery(uniqueNumber())]);
    expect(refused).to.include({ kind: 'failed' });
    expect((refused as { reason: string }).reason).to.match(/^WhatsApp 132001: /);
    // The code template (one parameter) named as the alert template: three parameters do not fit.
    const mismatch = senderFor({ WHATSAPP_ALERT_TEMPLATE: 'portfolio_code:en' }).sender;
    const [count] = await mismatch.send([delivery(uniqueNumber())]);
    expect((count as { reason: string }).reason).to.match(/^WhatsApp 132000: /);
  });

  it('no answer from the network is a retry', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { sender } = senderFor({ WHATSAPP_API_URL: `http://127.0.0.1:${port}/v24.0` });
    const [outcome] = await sender.send([delivery(uniqueNumber())]);
    expect(outcome).to.include({ kind: 'retry' });
    expect(outcome).to.not.have.property('afterMs');
  });

  it('takes a batch, one outcome per delivery in order', async () => {
    const { sender } = senderFor();
    const batch = Array.from({ length: 25 }, () => delivery(uniqueNumber()));
    fake.failNext(131026, { to: batch[7]!.endpoint.value });
    const outcomes = await sender.send(batch);
    expect(outcomes).to.have.length(25);
    expect(outcomes[7]!.kind).to.equal('gone');
    expect(outcomes.filter((o) => o.kind === 'accepted')).to.have.length(24);
    const byCallback = new Map(fake.messages.map((m) => [m.callbackData, m]));
    batch.forEach((d, i) => {
      if (i !== 7)
        expect((outcomes[i] as { providerMessageId: string }).providerMessageId).to.equal(
          byCallback.get(d.id)!.wamid,
        );
    });
  });
});
