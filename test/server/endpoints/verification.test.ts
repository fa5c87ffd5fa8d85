import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { eq } from 'drizzle-orm';
import { notificationEndpoints } from '../../../server/src/db/schema.ts';
import { appSuite } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import {
  addEndpoint,
  APP_URL,
  backdate,
  BASE,
  listEndpoints,
  outboxFor,
  tokenOf,
  uniqueEmail,
  verify,
  verifyLink,
} from './support.ts';

const INVALID = 'This verification link is invalid or has already been used.';
const EXPIRED = 'This verification link has expired. Please request a new one from Settings.';
const TOO_SOON = 'Please wait a minute before requesting another verification email.';
const DAY_MS = 24 * 3_600_000;

/** POST with a forged Host header (fetch does not allow setting one). */
function postWithHost(url: string, path: string, token: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}${path}`,
      {
        method: 'POST',
        headers: { host, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}

describe('notification endpoints: email verification', () => {
  const { app } = appSuite({ env: { APP_URL } });
  let user: SignedInUser;
  before(async () => {
    user = await signIn(app);
  });

  /** Adds a pending email endpoint; returns its id, address and the token from the outbox. */
  async function addPending(owner: SignedInUser = user) {
    const address = uniqueEmail('verify');
    const res = await addEndpoint(app, owner.token, { value: address });
    expect(res.status).to.equal(201);
    const [mail] = await outboxFor(app, address);
    return { id: res.body.data!.id, address, token: tokenOf(verifyLink(mail!.text)) };
  }

  it('round trip: the link from the outbox verifies the endpoint once', async () => {
    const { id, address, token } = await addPending();
    expect(token).to.match(/^[A-Za-z0-9_-]{43}$/);
    const res = await verify(app, token);
    expect(res.status).to.equal(200);
    expect(res.body.success).to.equal(true);
    expect(res.body.data).to.include({ id, value: address, verification_status: 'verified' });
    const listed = (await listEndpoints(app, user.token)).find((e) => e.id === id);
    expect(listed!.verification_status).to.equal('verified');

    expect(res.body.data!.already_verified, 'the first click').to.equal(false);

    // The same link clicked again (a second tab, a mail client's preview): already verified, not invalid.
    const reused = await verify(app, token);
    expect(reused.status).to.equal(200);
    expect(reused.body.data).to.include({ id, verification_status: 'verified', already_verified: true });
  });

  it('refuses tampered, unknown and missing tokens', async () => {
    const { id, token } = await addPending();
    const flipped = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    for (const bad of [flipped, token.slice(0, -1), `${token}x`, 'x'.repeat(43), '']) {
      const res = await verify(app, bad);
      expect(res.status, bad).to.equal(400);
      expect(res.body).to.deep.equal({ success: false, error: INVALID });
    }
    const missing = await apiClient(app.url).get(`${BASE}/verify`);
    expect(missing.status).to.equal(400);
    expect(missing.body.error).to.equal(INVALID);
    expect((await listEndpoints(app, user.token)).find((e) => e.id === id)!.verification_status).to.equal(
      'pending',
    );
  });

  it('refuses an expired token with its own sentence', async () => {
    const { id, token } = await addPending();
    await backdate(app, id, { tokenExpiresAt: new Date(Date.now() - 1000) });
    const res = await verify(app, token);
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ success: false, error: EXPIRED });
    expect((await listEndpoints(app, user.token)).find((e) => e.id === id)!.verification_status).to.equal(
      'pending',
    );
  });

  it('stores only the SHA-256 of the link token, valid for 24 hours', async () => {
    const sentAfter = Date.now();
    const { id, token } = await addPending();
    const sentBefore = Date.now();
    const [row] = await app.runtime.deps.db
      .select({ hash: notificationEndpoints.tokenHash, expiresAt: notificationEndpoints.tokenExpiresAt })
      .from(notificationEndpoints)
      .where(eq(notificationEndpoints.id, id));
    expect(row!.hash).to.equal(createHash('sha256').update(token).digest('hex'));
    expect(row!.hash).to.not.equal(token);
    expect(row!.expiresAt!.getTime())
      .to.be.at.least(sentAfter + DAY_MS - 1000)
      .and.at.most(sentBefore + DAY_MS + 1000);
  });

  it('still verifies a token sent 23 h 59 min ago', async () => {
    const { id, token } = await addPending();
    // Sent 23 h 59 min ago: one minute of its 24 hours left.
    await backdate(app, id, { tokenExpiresAt: new Date(Date.now() + 60_000) });
    const res = await verify(app, token);
    expect(res.status, res.body.error).to.equal(200);
    expect(res.body.data).to.include({ id, verification_status: 'verified' });
  });

  it("a token is bound to its endpoint: another user's token never verifies this one", async () => {
    const mine = await addPending();
    const other = await signIn(app);
    const theirs = await addPending(other);
    expect((await verify(app, theirs.token)).body.data).to.include({ id: theirs.id });
    expect(
      (await listEndpoints(app, user.token)).find((e) => e.id === mine.id)!.verification_status,
    ).to.equal('pending');
    // Verify by id (a WhatsApp number's code) and resend are 404 for another user's endpoint.
    const api = apiClient(app.url);
    expect((await api.post(`${BASE}/${mine.id}/verify`, {}, other.token)).status).to.equal(404);
    expect((await api.post(`${BASE}/${mine.id}/resend`, {}, other.token)).status).to.equal(404);
  });

  it('resend: at most once a minute (429 with Retry-After); the new link replaces the old', async () => {
    const api = apiClient(app.url);
    const { id, address, token: first } = await addPending();
    const early = await api.post(`${BASE}/${id}/resend`, {}, user.token);
    expect(early.status).to.equal(429);
    expect(early.body).to.deep.equal({ success: false, error: TOO_SOON });
    const retryAfter = Number(early.headers.get('retry-after'));
    expect(retryAfter).to.be.within(1, 60);

    await backdate(app, id, { lastSentAt: new Date(Date.now() - 61_000) });
    const resent = await api.post(`${BASE}/${id}/resend`, {}, user.token);
    expect(resent.status).to.equal(200);
    expect(resent.body.data).to.include({ id, verification_status: 'pending', email_sent: true });
    const again = await api.post(`${BASE}/${id}/resend`, {}, user.token);
    expect(again.status).to.equal(429);
    expect(Number(again.headers.get('retry-after'))).to.be.within(55, 60);

    const mails = await outboxFor(app, address);
    expect(mails).to.have.length(2);
    const second = tokenOf(verifyLink(mails[0]!.text));
    expect(second).not.to.equal(first);
    expect((await verify(app, first)).body.error).to.equal(INVALID);
    expect((await verify(app, second)).status).to.equal(200);
  });

  it('resend uses APP_URL even when the request names another host', async () => {
    const { id, address } = await addPending();
    await backdate(app, id, { lastSentAt: new Date(Date.now() - 61_000) });
    expect(await postWithHost(app.url, `${BASE}/${id}/resend`, user.token, 'evil-host.example')).to.equal(
      200,
    );
    const [latest] = await outboxFor(app, address);
    expect(verifyLink(latest!.text).startsWith(`${APP_URL}/verify-endpoint?token=`)).to.equal(true);
    expect(latest!.html).not.to.contain('evil-host.example');
  });

  it('resend on a verified endpoint is 409, on a WhatsApp number 400', async () => {
    const api = apiClient(app.url);
    const own = (await listEndpoints(app, user.token)).find((e) => e.is_account_email)!;
    const verified = await api.post(`${BASE}/${own.id}/resend`, {}, user.token);
    expect(verified.status).to.equal(409);
    expect(verified.body.error).to.equal('This endpoint is already verified');

    const advanced = await signIn(app, { tier: 'advanced' });
    const phone = await addEndpoint(app, advanced.token, { type: 'whatsapp', value: '+14155550123' });
    const res = await api.post(`${BASE}/${phone.body.data!.id}/resend`, {}, advanced.token);
    expect(res.status).to.equal(400);
    expect(res.body.error)
      .to.be.a('string')
      .and.match(/only sent to email endpoints/);
  });
});
