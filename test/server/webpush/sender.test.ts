import { expect } from 'chai';
import { createPrivateKey, sign } from 'node:crypto';
import https from 'node:https';
import webpush from 'web-push';
import {
  createWebPushSender,
  MAX_PAYLOAD_BYTES,
  PUSH_TTL_SECONDS,
  pushTopic,
  vapidAuthorizations,
} from '../../../server/src/channels/webpush/sender.ts';
import type { VapidKeys } from '../../../server/src/channels/webpush/vapid.ts';
import {
  startFakePushService,
  type FakePushService,
  type FakeSubscription,
} from '../../helpers/fake-push-service.ts';
import { captureLog } from '../../helpers/log.ts';
import { delivery, STOP, TARGET } from './support.ts';

/** A VAPID JWT signed with `vapid`'s key, with the claims given (to see the fake refuse bad ones). */
function vapidHeader(vapid: VapidKeys, claims: Record<string, unknown>): string {
  const pub = Buffer.from(vapid.publicKey, 'base64url');
  const key = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: vapid.privateKey,
      x: pub.subarray(1, 33).toString('base64url'),
      y: pub.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ typ: 'JWT', alg: 'ES256' })}.${part(claims)}`;
  const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString(
    'base64url',
  );
  return `vapid t=${input}.${signature}, k=${vapid.publicKey}`;
}

describe('web push: the sender against the fake push service', () => {
  const vapid: VapidKeys = { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@portfolioguard.example' };
  let fake: FakePushService;
  const { log, lines } = captureLog();
  const sender = () =>
    createWebPushSender({ vapid, log, allowPrivateEndpoints: true, ca: fake.ca, concurrency: 4 });

  before(async () => {
    fake = await startFakePushService();
  });
  after(() => fake.close());

  it('sends the notice encrypted for the subscription: the browser decrypts exactly what was sent', async () => {
    const phone = fake.subscribe(vapid.publicKey);
    const [outcome] = await sender().send([delivery(phone)]);
    const [push, ...more] = fake.receivedBy(phone);
    expect(more).to.have.length(0);
    expect(push!.decryptError).to.equal(null);
    expect(JSON.parse(push!.payload!)).to.deep.equal({
      title: 'INFY stop loss hit',
      body: '₹1,234.50 crossed ₹1,240.00 · 10:41 IST',
      url: 'https://app.example.test/holdings/NSE/INFY',
      tag: STOP.tag,
    });
    expect(outcome).to.deep.equal({ kind: 'accepted', providerMessageId: push!.location });
    expect(push!.location).to.match(new RegExp(`^${fake.origin}/m/`));
  });

  it('asks for a 4-hour TTL, high urgency for a stop loss (normal otherwise) and one Topic per tag', async () => {
    const phone = fake.subscribe(vapid.publicKey);
    await sender().send([delivery(phone, STOP), delivery(phone, TARGET), delivery(phone, STOP)]);
    const [stop, target, again] = fake.receivedBy(phone);
    expect(PUSH_TTL_SECONDS).to.equal(14_400);
    expect(stop!.headers).to.include({ ttl: '14400', urgency: 'high', contentEncoding: 'aes128gcm' });
    expect(target!.headers).to.include({ ttl: '14400', urgency: 'normal' });
    expect(stop!.headers.topic).to.match(/^[A-Za-z0-9_-]{1,32}$/);
    expect(stop!.headers.topic).to.equal(pushTopic(STOP.tag));
    expect(again!.headers.topic).to.equal(stop!.headers.topic);
    expect(target!.headers.topic).not.to.equal(stop!.headers.topic);
  });

  it("signs with the app's VAPID key: aud the push service's origin, sub the subject, exp within 24 hours", async () => {
    const phone = fake.subscribe(vapid.publicKey);
    await sender().send([delivery(phone)]);
    const [push] = fake.receivedBy(phone);
    expect(push!.status).to.equal(201);
    expect(push!.headers.authorization).to.match(
      new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${vapid.publicKey}$`),
    );
    expect(push!.claims).to.include({ aud: fake.origin, sub: 'mailto:ops@portfolioguard.example' });
    const exp = push!.claims!.exp as number;
    expect(exp - Date.now() / 1000).to.be.within(60, 24 * 3600);
  });

  it('signs one VAPID JWT per push service and reuses it for hours, then signs a new one', async () => {
    const phone = fake.subscribe(vapid.publicKey);
    const shared = sender();
    await shared.send([delivery(phone)]);
    await shared.send([delivery(phone)]);
    const [first, second] = fake.receivedBy(phone);
    expect(first!.status).to.equal(201);
    expect(second!.headers.authorization).to.equal(first!.headers.authorization);

    let clock = Date.parse('2026-11-27T04:00:00Z');
    const authorization = vapidAuthorizations(vapid, () => clock);
    const morning = authorization(`${fake.origin}/push/a`);
    expect(authorization(`${fake.origin}/push/b`)).to.equal(morning);
    expect(authorization('https://fcm.googleapis.com/fcm/send/x')).not.to.equal(morning);
    clock += 5 * 3600_000;
    expect(authorization(`${fake.origin}/push/a`), 'still 7 hours left').to.equal(morning);
    clock += 2 * 3600_000;
    const later = authorization(`${fake.origin}/push/a`);
    expect(later, 'under 6 hours left: a new one').not.to.equal(morning);
    const claims = (header: string) =>
      JSON.parse(Buffer.from(header.split('.')[1]!, 'base64url').toString()) as { exp: number; aud: string };
    expect(claims(later).exp - clock / 1000).to.equal(12 * 3600);
    expect(claims(later).aud).to.equal(fake.origin);
  });

  it("turns each push service answer into the row's outcome, in order, in one batch", async () => {
    const make = (status: 400 | 404 | 410 | 413 | 429 | 500 | 503, retryAfter?: string) => {
      const subscription = fake.subscribe(vapid.publicKey);
      fake.script(subscription, { status, retryAfter });
      return subscription;
    };
    const ok = fake.subscribe(vapid.publicKey);
    const subscriptions = [
      make(404),
      make(410),
      make(429, '30'),
      make(413),
      make(400),
      make(500),
      make(503, '5'),
      ok,
    ];
    const outcomes = await sender().send(subscriptions.map((s) => delivery(s)));
    expect(outcomes.map((o) => o.kind)).to.deep.equal([
      'gone',
      'gone',
      'retry',
      'failed',
      'failed',
      'retry',
      'retry',
      'accepted',
    ]);
    expect(outcomes[0]).to.deep.include({
      reason:
        'push service answered 404: {"code":404,"errno":102,"error":"Not Found","message":"Request did not validate invalid token"}',
    });
    expect(outcomes[1]).to.deep.include({
      reason:
        'push service answered 410: {"code":410,"errno":106,"error":"Gone","message":"Push subscription is no longer available"}',
    });
    expect(outcomes[2]).to.deep.include({ afterMs: 30_000, throttled: true });
    expect(outcomes[5]).to.deep.include({ afterMs: undefined });
    expect(outcomes[6]).to.deep.include({ afterMs: 5_000 });
    // 413 and 400 are the app's own bug: logged as errors with the push service's answer.
    const refusals = lines
      .filter((l) => l.msg === 'push service refused a notification')
      .map((l) => l.status);
    expect(refusals).to.include.members([413, 400]);
  });

  it('fails a subscription made with another VAPID key (403) and one without keys, without throwing', async () => {
    const other = fake.subscribe(webpush.generateVAPIDKeys().publicKey);
    const noKeys = {
      ...delivery(fake.subscribe()),
      endpoint: { id: 'ep-x', value: 'https://127.0.0.1/x', label: null, meta: null },
    };
    const [wrongKey, missing] = await sender().send([delivery(other), noKeys]);
    expect(wrongKey).to.deep.include({ kind: 'failed' });
    expect((wrongKey as { reason: string }).reason).to.contain('push service answered 403');
    expect(missing).to.deep.equal({ kind: 'failed', reason: 'the endpoint has no push subscription keys' });
  });

  it('retries when the push service cannot be reached', async () => {
    const phone = fake.subscribe(vapid.publicKey);
    const [outcome] = await sender().send([delivery({ ...phone, endpoint: 'https://127.0.0.1:9/push/x' })]);
    expect(outcome).to.deep.include({ kind: 'retry' });
    expect((outcome as { reason: string }).reason).to.match(/^push service unreachable: .*ECONNREFUSED/);
  });

  it('trusts a push service only by a known certificate: without the fake CA its push is never sent', async () => {
    const phone = fake.subscribe(vapid.publicKey);
    const untrusting = createWebPushSender({ vapid, log, allowPrivateEndpoints: true });
    const [outcome] = await untrusting.send([delivery(phone)]);
    expect(outcome).to.deep.include({ kind: 'retry' });
    expect((outcome as { reason: string }).reason).to.match(/^push service unreachable: .*certificate/);
    expect(fake.receivedBy(phone)).to.have.length(0);
  });

  it('never calls a private address without WEBPUSH_ALLOW_PRIVATE_ENDPOINTS: the endpoint is gone', async () => {
    const phone = fake.subscribe(vapid.publicKey);
    const guarded = createWebPushSender({ vapid, log, allowPrivateEndpoints: false, ca: fake.ca });
    const [outcome] = await guarded.send([delivery(phone)]);
    expect(outcome).to.deep.equal({
      kind: 'gone',
      reason: 'the endpoint is not a public address: 127.0.0.1 is not a public address',
    });
    expect(fake.receivedBy(phone)).to.have.length(0);
  });

  it('refuses at connect time a name that passed the check but resolves to a private address (DNS rebinding)', async () => {
    const phone = fake.subscribe(vapid.publicKey);
    // The name is public when checked before the send, and the fake's own address a moment later.
    const answers = [['93.184.216.34'], ['127.0.0.1']];
    const rebinding = createWebPushSender({
      vapid,
      log,
      allowPrivateEndpoints: false,
      ca: fake.ca,
      resolve: () => Promise.resolve(answers.shift() ?? ['127.0.0.1']),
    });
    const endpoint = `https://push.rebind.example:${new URL(phone.endpoint).port}/push/rebind`;
    const [outcome] = await rebinding.send([delivery({ ...phone, endpoint })]);
    expect(outcome).to.deep.equal({
      kind: 'gone',
      reason: 'push.rebind.example resolves to 127.0.0.1, which is not a public address',
    });
    expect(fake.receivedBy(phone)).to.have.length(0);
  });

  it('sends a batch a few at a time and answers one outcome per row in order', async () => {
    const phones = Array.from({ length: 24 }, () => fake.subscribe(vapid.publicKey));
    for (const phone of phones) fake.script(phone, { status: 201, delayMs: 60 });
    fake.script(phones[7]!, { status: 410, delayMs: 60 });
    fake.resetMaxInFlight();
    const outcomes = await sender().send(phones.map((p) => delivery(p)));
    expect(outcomes).to.have.length(24);
    outcomes.forEach((outcome, i) => expect(outcome.kind, String(i)).to.equal(i === 7 ? 'gone' : 'accepted'));
    expect(
      new Set(outcomes.map((o) => (o as { providerMessageId?: string }).providerMessageId)).size,
    ).to.equal(24);
  });

  it('shortens a notice to at most 3 KB of JSON, keeping the title, url and tag', async () => {
    const phone = fake.subscribe(vapid.publicKey);
    const long = { ...STOP, body: `Crossings: ${'₹1,234.50 · '.repeat(400)}` };
    const [outcome] = await sender().send([delivery(phone, long)]);
    expect(outcome!.kind).to.equal('accepted');
    const [push] = fake.receivedBy(phone);
    expect(Buffer.byteLength(push!.payload!))
      .to.be.at.most(MAX_PAYLOAD_BYTES)
      .and.above(MAX_PAYLOAD_BYTES - 16);
    const payload = JSON.parse(push!.payload!) as { title: string; body: string; url: string; tag: string };
    expect(payload).to.include({ title: STOP.title, url: STOP.url, tag: STOP.tag });
    expect(payload.body.endsWith('…')).to.equal(true);
    expect(long.body.startsWith(payload.body.slice(0, -1))).to.equal(true);
  });
});

describe('fake push service: what it refuses', () => {
  const vapid: VapidKeys = { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@portfolioguard.example' };
  let fake: FakePushService;
  before(async () => {
    fake = await startFakePushService();
  });
  after(() => fake.close());

  /** POSTs web-push's own request for `subscription`, with some headers replaced. */
  async function post(subscription: FakeSubscription, headers: Record<string, string | undefined>) {
    const details = webpush.generateRequestDetails(subscription, 'hello', { vapidDetails: vapid, TTL: 60 });
    const merged: Record<string, string | number> = { ...details.headers };
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined) delete merged[name];
      else merged[name] = value;
    }
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = https.request(details.endpoint, { method: 'POST', headers: merged, ca: fake.ca }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end(details.body);
    });
  }

  const now = () => Math.floor(Date.now() / 1000);

  it("accepts web-push's own request", async () => {
    const res = await post(fake.subscribe(vapid.publicKey), {});
    expect(res.status).to.equal(201);
  });

  it('refuses a request without TTL (400) and one without Authorization (401)', async () => {
    expect(await post(fake.subscribe(vapid.publicKey), { TTL: undefined })).to.deep.equal({
      status: 400,
      body: '{"code":400,"errno":111,"error":"Bad Request","message":"Missing TTL header"}',
    });
    expect((await post(fake.subscribe(vapid.publicKey), { Authorization: undefined })).status).to.equal(401);
  });

  it('refuses a VAPID JWT whose exp is over 24 hours ahead, without sub, for another aud, or badly signed (403)', async () => {
    const sub = vapid.subject;
    const claims = { aud: fake.origin, exp: now() + 3600, sub };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...claims, exp: now() + 25 * 3600 }, 'exp must be at most 24 hours ahead'],
      [{ aud: fake.origin, exp: now() + 3600 }, 'sub must be a mailto: or https: URL'],
      [{ ...claims, aud: 'https://fcm.googleapis.com' }, `aud must be ${fake.origin}`],
      [{ ...claims, exp: now() - 10 }, 'JWT has expired'],
    ];
    for (const [bad, message] of cases) {
      const res = await post(fake.subscribe(vapid.publicKey), { Authorization: vapidHeader(vapid, bad) });
      expect(res.status, message).to.equal(403);
      expect(JSON.parse(res.body), message).to.include({ errno: 109, message });
    }
    const good = vapidHeader(vapid, claims);
    expect((await post(fake.subscribe(vapid.publicKey), { Authorization: good })).status).to.equal(201);
    const forged = good.replace(/k=.*$/, `k=${webpush.generateVAPIDKeys().publicKey}`);
    const res = await post(fake.subscribe(), { Authorization: forged });
    expect(JSON.parse(res.body)).to.include({ message: 'JWT signature does not verify with k' });
  });

  it('records a payload it cannot decrypt (keys of another subscription) instead of passing it off', async () => {
    const one = fake.subscribe(vapid.publicKey);
    const other = fake.subscribe(vapid.publicKey);
    const details = webpush.generateRequestDetails({ ...other, endpoint: one.endpoint }, 'secret', {
      vapidDetails: vapid,
      TTL: 60,
    });
    await new Promise<void>((resolve, reject) => {
      const req = https.request(
        details.endpoint,
        { method: 'POST', headers: details.headers, ca: fake.ca },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(details.body);
    });
    const [push] = fake.receivedBy(one);
    expect(push!.payload).to.equal(null);
    expect(push!.decryptError).to.be.a('string');
  });
});
