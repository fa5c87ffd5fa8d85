/**
 * Adding a WhatsApp number on a server with WhatsApp configured (docs/notifications.md#whatsapp):
 * a six-digit code goes out in the code template through the fake Graph API; the number is
 * verified by typing it (`POST /:id/verify`), with the tries left on a wrong one, and refused once
 * expired or after five wrong tries; resend at most once a minute; Basic is refused; and without
 * WhatsApp configured a number is stored as before, with nothing sent.
 */
import { expect } from 'chai';
import { CODE_MESSAGES, codeSentNotice, wrongCodeMessage } from '@app/common/endpoints/whatsapp-code';
import { eq } from 'drizzle-orm';
import { notificationEndpoints } from '../../../server/src/db/schema.ts';
import { appSuite } from '../../helpers/app.ts';
import { FAKE_WHATSAPP, whatsappSuite } from '../../helpers/fake-whatsapp.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import { addNumber, BASE, uniqueNumber } from './support.ts';

const TIER_MESSAGE = 'WhatsApp alerts are available on the Advanced tier. Upgrade to add a WhatsApp number.';

describe('WhatsApp numbers: a code on WhatsApp, typed into Settings', () => {
  const { app, api, fake } = whatsappSuite();
  let advanced: SignedInUser;
  let basic: SignedInUser;
  before(async () => {
    advanced = await signIn(app, { tier: 'advanced' });
    basic = await signIn(app);
  });

  const rowOf = async (id: string) => {
    const [row] = await app.runtime.deps.db
      .select()
      .from(notificationEndpoints)
      .where(eq(notificationEndpoints.id, id));
    return row!;
  };

  it('sends a 6-digit code in the code template; the right code verifies the number', async () => {
    const number = uniqueNumber();
    const res = await addNumber(app, advanced.token, number);
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({
      type: 'whatsapp',
      value: number,
      verification_status: 'pending',
      email_sent: false,
      notice: codeSentNotice(number),
    });
    const [sent] = fake.messages;
    expect(sent).to.include({ to: number.slice(1), template: FAKE_WHATSAPP.codeTemplate.name, status: 200 });
    expect(sent!.headers.authorization).to.equal(`Bearer ${FAKE_WHATSAPP.token}`);
    const code = fake.codeSentTo(number)!;
    expect(code).to.match(/^\d{6}$/);
    // Only a keyed hash of the code is stored, bound to the row.
    const row = await rowOf(res.body.data!.id);
    expect(row.tokenHash)
      .to.match(/^[0-9a-f]{64}$/)
      .and.not.include(code);
    expect(row.tokenExpiresAt!.getTime() - Date.now()).to.be.within(9 * 60_000, 10 * 60_000 + 1000);

    const verified = await api.post(`${BASE}/${res.body.data!.id}/verify`, { code }, advanced.token);
    expect(verified.status).to.equal(200);
    expect(verified.body.data).to.include({ id: res.body.data!.id, verification_status: 'verified' });
    const list = await api.get<Array<{ id: string; verification_status: string }>>(BASE, advanced.token);
    expect(list.body.data!.find((e) => e.id === res.body.data!.id)!.verification_status).to.equal('verified');
    // Spent: the same code again is 409 already verified.
    const again = await api.post(`${BASE}/${res.body.data!.id}/verify`, { code }, advanced.token);
    expect(again.status).to.equal(409);
  });

  it('a wrong code is 400 with the tries left; after five the right one no longer works', async () => {
    const number = uniqueNumber();
    const { id } = (await addNumber(app, advanced.token, number)).body.data!;
    const code = fake.codeSentTo(number)!;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let left = 4; left >= 0; left--) {
      const res = await api.post(`${BASE}/${id}/verify`, { code: wrong }, advanced.token);
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal(wrongCodeMessage(left));
    }
    const late = await api.post(`${BASE}/${id}/verify`, { code }, advanced.token);
    expect(late.status).to.equal(400);
    expect(late.body.error).to.equal(CODE_MESSAGES.tooManyTries);
    expect((await rowOf(id)).verificationStatus).to.equal('pending');
  });

  it('an expired code is refused with a sentence; a resend (once a minute) sends a new one that works', async () => {
    const number = uniqueNumber();
    const { id } = (await addNumber(app, advanced.token, number)).body.data!;
    const first = fake.codeSentTo(number)!;
    const tooSoon = await api.post(`${BASE}/${id}/resend`, {}, advanced.token);
    expect(tooSoon.status).to.equal(429);
    expect(tooSoon.body.error).to.equal(CODE_MESSAGES.resendTooSoon);
    expect(Number(tooSoon.headers.get('retry-after'))).to.be.within(1, 60);

    const past = new Date(Date.now() - 11 * 60_000);
    await app.runtime.deps.db
      .update(notificationEndpoints)
      .set({ tokenExpiresAt: new Date(Date.now() - 60_000), lastSentAt: past })
      .where(eq(notificationEndpoints.id, id));
    const expired = await api.post(`${BASE}/${id}/verify`, { code: first }, advanced.token);
    expect(expired.status).to.equal(400);
    expect(expired.body.error).to.equal(CODE_MESSAGES.expired);

    const resent = await api.post<{ notice: string }>(`${BASE}/${id}/resend`, {}, advanced.token);
    expect(resent.status).to.equal(200);
    expect(resent.body.data!.notice).to.equal(codeSentNotice(number));
    expect(fake.messages.filter((m) => m.template === FAKE_WHATSAPP.codeTemplate.name)).to.have.length(2);
    const second = fake.codeSentTo(number)!;
    if (second !== first) {
      const old = await api.post(`${BASE}/${id}/verify`, { code: first }, advanced.token);
      expect(old.body.error).to.equal(wrongCodeMessage(4));
    }
    const ok = await api.post(`${BASE}/${id}/verify`, { code: second }, advanced.token);
    expect(ok.status).to.equal(200);
  });

  it('refuses a malformed code with the field sentence, and another user’s endpoint with 404', async () => {
    const number = uniqueNumber();
    const { id } = (await addNumber(app, advanced.token, number)).body.data!;
    const bad = await api.post(`${BASE}/${id}/verify`, { code: '12ab56' }, advanced.token);
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.equal(CODE_MESSAGES.format);
    const other = await signIn(app, { tier: 'advanced' });
    const foreign = await api.post(`${BASE}/${id}/verify`, { code: fake.codeSentTo(number) }, other.token);
    expect(foreign.status).to.equal(404);
    const unsigned = await api.post(`${BASE}/${id}/verify`, { code: fake.codeSentTo(number) });
    expect(unsigned.status).to.equal(401);
    expect((await rowOf(id)).verificationStatus).to.equal('pending');
  });

  it('Basic is refused as before and nothing is sent', async () => {
    const res = await addNumber(app, basic.token, uniqueNumber());
    expect(res.status).to.equal(403);
    expect(res.body.error).to.equal(TIER_MESSAGE);
    expect(fake.messages).to.have.length(0);
  });

  it('a number WhatsApp cannot reach (131026) is added with a notice, and Resend answers 502', async () => {
    const number = uniqueNumber();
    fake.failNext(131026, { to: number });
    const res = await addNumber(app, advanced.token, number);
    expect(res.status).to.equal(201);
    expect(res.body.data!.notice).to.equal(
      'The number was added, but WhatsApp could not deliver a code to it. Check that the number is on WhatsApp, or delete it and add it again.',
    );
    await app.runtime.deps.db
      .update(notificationEndpoints)
      .set({ lastSentAt: new Date(Date.now() - 61_000) })
      .where(eq(notificationEndpoints.id, res.body.data!.id));
    fake.failNext(131026, { to: number });
    const resend = await api.post(`${BASE}/${res.body.data!.id}/resend`, {}, advanced.token);
    expect(resend.status).to.equal(502);
    expect(resend.body.error).to.equal(CODE_MESSAGES.refused);
  });

  it('the status route says WhatsApp is configured', async () => {
    const res = await api.get<{ configured: boolean }>('/api/whatsapp/status', advanced.token);
    expect(res.body.data).to.deep.equal({ configured: true });
  });
});

describe('WhatsApp numbers without WhatsApp configured: as before', () => {
  const { app, api } = appSuite();

  it('stores the number pending, sends nothing; verify and resend say so', async () => {
    const user = await signIn(app, { tier: 'advanced' });
    const res = await addNumber(app, user.token, uniqueNumber());
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({ verification_status: 'pending', email_sent: false, notice: null });
    const verify = await api.post(`${BASE}/${res.body.data!.id}/verify`, { code: '123456' }, user.token);
    expect(verify.status).to.equal(400);
    expect(verify.body.error).to.equal(CODE_MESSAGES.notConfigured);
    const resend = await api.post(`${BASE}/${res.body.data!.id}/resend`, {}, user.token);
    expect(resend.status).to.equal(400);
    const status = await api.get<{ configured: boolean }>('/api/whatsapp/status', user.token);
    expect(status.body.data).to.deep.equal({ configured: false });
    const hook = await api.get('/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1');
    expect(hook.status).to.equal(404);
  });
});
