/**
 * How the Web Push sender reaches a push service (server/src/channels/webpush/transport.ts):
 * HTTP/2 on one connection when the service offers it, HTTP/1.1 when it does not, a new
 * session after the service's GOAWAY, and a request that gets no answer retried.
 */
import { expect } from 'chai';
import webpush from 'web-push';
import { createWebPushSender } from '../../../server/src/channels/webpush/sender.ts';
import type { VapidKeys } from '../../../server/src/channels/webpush/vapid.ts';
import { startFakePushService, type FakePushService } from '../../helpers/fake-push-service.ts';
import { captureLog } from '../../helpers/log.ts';
import { delivery, STOP } from './support.ts';

describe('web push: HTTP/2 to push services that offer it, HTTP/1.1 to those that do not', () => {
  const vapid: VapidKeys = { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@portfolioguard.example' };
  const { log } = captureLog();
  const fakes: FakePushService[] = [];
  const start = async (options?: Parameters<typeof startFakePushService>[0]) => {
    const fake = await startFakePushService(options);
    fakes.push(fake);
    return fake;
  };
  const senderFor = (fake: FakePushService, extra: { requestTimeoutMs?: number } = {}) =>
    createWebPushSender({ vapid, log, allowPrivateEndpoints: true, ca: fake.ca, concurrency: 8, ...extra });
  after(async () => {
    for (const fake of fakes) await fake.close();
  });

  it('a push service offering HTTP/2 gets a batch over HTTP/2 on one connection, each payload decrypted', async () => {
    const fake = await start();
    const phones = Array.from({ length: 20 }, () => fake.subscribe(vapid.publicKey));
    const outcomes = await senderFor(fake).send(phones.map((p) => delivery(p)));
    expect(outcomes.map((o) => o.kind)).to.deep.equal(phones.map(() => 'accepted'));
    expect(fake.received.map((r) => r.httpVersion)).to.deep.equal(phones.map(() => '2.0'));
    expect(fake.received.map((r) => JSON.parse(r.payload!).title)).to.deep.equal(
      phones.map(() => STOP.title),
    );
    expect(fake.connections).to.equal(1);
  });

  it('a push service offering only HTTP/1.1 gets the same pushes over HTTP/1.1', async () => {
    const fake = await start({ http1Only: true });
    const phones = Array.from({ length: 5 }, () => fake.subscribe(vapid.publicKey));
    const outcomes = await senderFor(fake).send(phones.map((p) => delivery(p)));
    expect(outcomes.map((o) => o.kind)).to.deep.equal(phones.map(() => 'accepted'));
    expect(fake.received.map((r) => r.httpVersion)).to.deep.equal(phones.map(() => '1.1'));
    expect(fake.received.map((r) => JSON.parse(r.payload!).title)).to.deep.equal(
      phones.map(() => STOP.title),
    );
  });

  it('after the push service sends GOAWAY (a restart), the next push opens a new connection and is accepted', async () => {
    const fake = await start();
    const phone = fake.subscribe(vapid.publicKey);
    const sender = senderFor(fake);
    expect((await sender.send([delivery(phone)]))[0]!.kind).to.equal('accepted');
    await fake.goAway();
    expect((await sender.send([delivery(phone)]))[0]!.kind).to.equal('accepted');
    expect(fake.receivedBy(phone).map((r) => r.status)).to.deep.equal([201, 201]);
    expect(fake.connections).to.equal(2);
  });

  it('a push the service never answers is retried after the request timeout, and the session goes on', async () => {
    const fake = await start();
    const [silent, other] = [fake.subscribe(vapid.publicKey), fake.subscribe(vapid.publicKey)];
    fake.script(silent, { status: 201, delayMs: 5_000, times: 1 });
    const sender = senderFor(fake, { requestTimeoutMs: 200 });
    const [outcome, next] = await sender.send([delivery(silent), delivery(other)]);
    expect(outcome).to.deep.equal({ kind: 'retry', reason: 'push service unreachable: no answer in 0.2 s' });
    expect(next!.kind).to.equal('accepted');
    expect(fake.connections).to.equal(1);
  });
});
