import type {
  ApiEndpointSendResult,
  ApiNotificationEndpoint,
  ApiVapidPublicKey,
} from '@app/common/api/endpoints';
import { MAX_PUSH_ENDPOINTS, PUSH_MESSAGES } from '@app/common/endpoints/webpush';
import { expect } from 'chai';
import { createECDH, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { notificationEndpoints } from '../../../server/src/db/schema.ts';
import { appSuite } from '../../helpers/app.ts';
import { request } from '../../helpers/http.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';

const BASE = '/api/notification-endpoints';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36';

/** A subscription as a browser makes it: fresh keys, an endpoint on a public push service address. */
function subscription(endpoint = `https://142.250.183.10/fcm/send/${randomBytes(12).toString('base64url')}`) {
  const p256dh = createECDH('prime256v1').generateKeys().toString('base64url');
  return { endpoint, expirationTime: null, keys: { p256dh, auth: randomBytes(16).toString('base64url') } };
}

describe('web push: the VAPID key and subscriptions as endpoints', () => {
  const { app } = appSuite();
  let asha: SignedInUser;
  let ravi: SignedInUser;
  before(async () => {
    asha = await signIn(app);
    ravi = await signIn(app);
  });

  const add = (user: SignedInUser, body: unknown, userAgent = CHROME_ANDROID) =>
    request<ApiEndpointSendResult>(app.url, 'POST', BASE, body, {
      token: user.token,
      headers: { 'user-agent': userAgent },
    });
  const list = async (user: SignedInUser) =>
    (await request<ApiNotificationEndpoint[]>(app.url, 'GET', BASE, undefined, { token: user.token })).body
      .data!;

  it('gives a signed-in user the public key to subscribe with: base64url, 65 bytes, uncompressed P-256', async () => {
    const res = await request<ApiVapidPublicKey>(app.url, 'GET', '/api/push/vapid-public-key', undefined, {
      token: asha.token,
    });
    expect(res.status).to.equal(200);
    const key = res.body.data!.public_key;
    expect(key).to.match(/^[A-Za-z0-9_-]+$/);
    const bytes = Buffer.from(key, 'base64url');
    expect(bytes).to.have.length(65);
    expect(bytes[0]).to.equal(0x04);
    expect(key).to.equal(app.runtime.deps.vapid.publicKey);
    const anonymous = await request(app.url, 'GET', '/api/push/vapid-public-key');
    expect(anonymous.status).to.equal(401);
  });

  it('adds a subscription as a verified webpush endpoint labelled with the device', async () => {
    const sub = subscription();
    const res = await add(asha, { type: 'webpush', subscription: sub });
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({
      type: 'webpush',
      value: sub.endpoint,
      label: 'Chrome on Android',
      verification_status: 'verified',
      is_active: true,
      is_account_email: false,
      email_sent: false,
      notice: null,
    });
    expect(JSON.stringify(res.body)).not.to.contain(sub.keys.auth);
    const listed = (await list(asha)).find((e) => e.id === res.body.data!.id);
    expect(listed).to.include({
      type: 'webpush',
      label: 'Chrome on Android',
      verification_status: 'verified',
    });
    const [row] = await app.runtime.deps.db
      .select()
      .from(notificationEndpoints)
      .where(eq(notificationEndpoints.id, res.body.data!.id));
    expect(row!.meta).to.deep.equal({ keys: sub.keys });
  });

  it('takes a label of its own, and answers the same subscription again with the same endpoint (200)', async () => {
    const sub = subscription();
    const first = await add(asha, { type: 'webpush', subscription: sub, label: 'Work laptop' });
    expect(first.status).to.equal(201);
    expect(first.body.data!.label).to.equal('Work laptop');
    const again = await add(asha, { type: 'webpush', subscription: sub });
    expect(again.status).to.equal(200);
    expect(again.body.data).to.include({ id: first.body.data!.id, label: 'Work laptop' });
    expect((await list(asha)).filter((e) => e.value === sub.endpoint)).to.have.length(1);
  });

  it('refuses endpoints that are not https or name a loopback, private or link-local address, with their sentences', async () => {
    const cases: [string, string][] = [
      ['http://fcm.googleapis.com/fcm/send/x', PUSH_MESSAGES.endpoint],
      ['https://127.0.0.1/push/x', PUSH_MESSAGES.privateAddress],
      ['https://[::1]:8443/push/x', PUSH_MESSAGES.privateAddress],
      ['https://[::ffff:10.0.0.1]/push/x', PUSH_MESSAGES.privateAddress],
      ['https://169.254.169.254/latest/meta-data', PUSH_MESSAGES.privateAddress],
      ['https://192.168.1.20/push/x', PUSH_MESSAGES.privateAddress],
      ['https://localhost/push/x', PUSH_MESSAGES.privateAddress],
      // Names: *.localhost is this machine by name; a name with no address cannot be called.
      ['https://push.localhost/push/x', PUSH_MESSAGES.privateAddress],
      ['https://push-service.invalid/push/x', PUSH_MESSAGES.unresolved],
    ];
    const before = (await list(ravi)).length;
    for (const [endpoint, message] of cases) {
      const res = await add(ravi, { type: 'webpush', subscription: subscription(endpoint) });
      expect(res.status, endpoint).to.equal(400);
      expect(res.body.error, endpoint).to.equal(message);
    }
    expect(await list(ravi)).to.have.length(before);
  });

  it('refuses keys that are not a P-256 point or a 16-byte secret', async () => {
    const sub = subscription();
    const offCurve = Buffer.alloc(65, 7);
    offCurve[0] = 4;
    const res = await add(ravi, {
      type: 'webpush',
      subscription: { ...sub, keys: { ...sub.keys, p256dh: offCurve.toString('base64url') } },
    });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal(PUSH_MESSAGES.p256dh);
    const shortAuth = await add(ravi, {
      type: 'webpush',
      subscription: { ...sub, keys: { ...sub.keys, auth: 'c2hvcnQ' } },
    });
    expect(shortAuth.body.error).to.equal(PUSH_MESSAGES.auth);
  });

  it(`allows at most ${MAX_PUSH_ENDPOINTS} devices per user, with a sentence, and still answers a device already added`, async () => {
    const user = await signIn(app);
    const added = [];
    for (let i = 0; i < MAX_PUSH_ENDPOINTS; i++) {
      const sub = subscription();
      const res = await add(user, { type: 'webpush', subscription: sub });
      expect(res.status).to.equal(201);
      added.push(sub);
    }
    const eleventh = await add(user, { type: 'webpush', subscription: subscription() });
    expect(eleventh.status).to.equal(400);
    expect(eleventh.body.error).to.equal(
      'You can enable alerts on at most 10 devices. Delete a device you no longer use, then try again.',
    );
    expect((await add(user, { type: 'webpush', subscription: added[0] })).status).to.equal(200);
  });

  it("moves a browser's subscription to the account that enabled it last, so it never shows another's alerts", async () => {
    const sub = subscription();
    const mine = await add(asha, { type: 'webpush', subscription: sub });
    expect(mine.status).to.equal(201);
    const theirs = await add(ravi, { type: 'webpush', subscription: sub });
    expect(theirs.status).to.equal(201);
    expect((await list(asha)).some((e) => e.value === sub.endpoint)).to.equal(false);
    expect((await list(ravi)).some((e) => e.value === sub.endpoint)).to.equal(true);
  });

  it("deletes only the user's own push endpoint", async () => {
    const sub = subscription();
    const { id } = (await add(asha, { type: 'webpush', subscription: sub })).body.data!;
    const notMine = await request(app.url, 'DELETE', `${BASE}/${id}`, undefined, { token: ravi.token });
    expect(notMine.status).to.equal(404);
    const mine = await request(app.url, 'DELETE', `${BASE}/${id}`, undefined, { token: asha.token });
    expect(mine.status).to.equal(200);
    expect((await list(asha)).some((e) => e.id === id)).to.equal(false);
  });
});
