import { expect } from 'chai';
import { appSuite } from '../../helpers/app.ts';
import { apiClient, request } from '../../helpers/http.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import { addEndpoint, APP_URL, BASE, listEndpoints, outboxFor, uniqueEmail, verifyLink } from './support.ts';

const CHECK_EMAIL = 'Please check your email and click the verification link to activate notifications.';

describe('notification endpoints: list, add, delete', () => {
  const { app } = appSuite({ env: { APP_URL } });
  let asha: SignedInUser;
  let ravi: SignedInUser;
  before(async () => {
    asha = await signIn(app);
    ravi = await signIn(app);
  });

  it('lists the account email first, verified and marked is_account_email', async () => {
    const list = await listEndpoints(app, asha.token);
    expect(list).to.have.length.of.at.least(1);
    const own = list[0]!;
    expect(own).to.have.all.keys(
      'id',
      'type',
      'value',
      'label',
      'is_active',
      'verification_status',
      'created_at',
      'is_account_email',
      'notices',
      'label',
      'inactive_reason',
    );
    expect(own).to.include({
      type: 'email',
      value: asha.email,
      is_active: true,
      verification_status: 'verified',
      is_account_email: true,
    });
    expect(own.notices, 'every kind by default').to.deep.equal(['alert', 'digest', 'corporate_action']);
    expect(Date.parse(own.created_at)).to.be.a('number').and.not.NaN;
  });

  it('adds an email endpoint as pending and mails a link built from APP_URL, not the Host header', async () => {
    const address = uniqueEmail('asha-alt');
    const res = await request(
      app.url,
      'POST',
      BASE,
      { type: 'email', value: `  ${address}  ` },
      {
        token: asha.token,
        headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
      },
    );
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({
      type: 'email',
      value: address,
      is_active: true,
      verification_status: 'pending',
      is_account_email: false,
      email_sent: true,
      notice: CHECK_EMAIL,
    });
    const [mail, ...rest] = await outboxFor(app, address);
    expect(rest).to.have.length(0);
    expect(mail!.subject).to.contain('Portfolio Guard');
    const link = verifyLink(mail!.text);
    expect(link.startsWith(`${APP_URL}/verify-endpoint?token=`)).to.equal(true);
    expect(mail!.html).to.contain(link);
    expect(mail!.text + mail!.html).not.to.contain('evil.example');
    expect(mail!.text + mail!.html).not.to.contain('127.0.0.1');
    const listed = (await listEndpoints(app, asha.token)).find((e) => e.value === address);
    expect(listed).to.include({ verification_status: 'pending', is_account_email: false });
  });

  it('refuses a duplicate of the same type and value, compared case-insensitively (409)', async () => {
    const address = uniqueEmail('dup');
    expect((await addEndpoint(app, asha.token, { type: 'email', value: address })).status).to.equal(201);
    for (const value of [address.toUpperCase(), ` ${address} `]) {
      const res = await addEndpoint(app, asha.token, { type: 'email', value });
      expect(res.status).to.equal(409);
      expect(res.body).to.deep.equal({ success: false, error: 'This endpoint already exists' });
    }
    const own = await addEndpoint(app, asha.token, { type: 'email', value: asha.email.toUpperCase() });
    expect(own.status).to.equal(409);
    // The same address is a different endpoint for another user.
    expect((await addEndpoint(app, ravi.token, { type: 'email', value: address })).status).to.equal(201);
  });

  it('WhatsApp: 403 on Basic; 201 pending on Advanced with nothing sent', async () => {
    const basic = await addEndpoint(app, asha.token, { type: 'whatsapp', value: '+919876543210' });
    expect(basic.status).to.equal(403);
    expect(basic.body.error).to.equal(
      'WhatsApp alerts are available on the Advanced tier. Upgrade to add a WhatsApp number.',
    );
    const advanced = await signIn(app, { tier: 'advanced' });
    const res = await addEndpoint(app, advanced.token, { type: 'whatsapp', value: '+91 98765 43210' });
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({
      type: 'whatsapp',
      value: '+919876543210',
      verification_status: 'pending',
      email_sent: false,
      notice: null,
    });
    expect(await outboxFor(app, '+919876543210')).to.deep.equal([]);
    expect(await outboxFor(app, advanced.email)).to.deep.equal([]);
    const again = await addEndpoint(app, advanced.token, { type: 'whatsapp', value: '+9198765 43210' });
    expect(again.status).to.equal(409);
  });

  it("deletes the user's own added endpoint, but never the account email (403)", async () => {
    const api = apiClient(app.url);
    const added = await addEndpoint(app, asha.token, { value: uniqueEmail('gone') });
    const id = added.body.data!.id;
    const res = await api.delete(`${BASE}/${id}`, asha.token);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal({ id, deleted: true });
    expect((await listEndpoints(app, asha.token)).map((e) => e.id)).not.to.include(id);
    expect((await api.delete(`${BASE}/${id}`, asha.token)).status).to.equal(404);

    const own = (await listEndpoints(app, asha.token)).find((e) => e.is_account_email)!;
    const refused = await api.delete(`${BASE}/${own.id}`, asha.token);
    expect(refused.status).to.equal(403);
    expect(refused.body.success).to.equal(false);
    expect(refused.body.error)
      .to.be.a('string')
      .and.match(/account email/);
    expect((await listEndpoints(app, asha.token)).map((e) => e.id)).to.include(own.id);
  });

  it("another user's ids and malformed ids are 404 for resend and delete", async () => {
    const api = apiClient(app.url);
    const added = await addEndpoint(app, asha.token, { value: uniqueEmail('mine') });
    const id = added.body.data!.id;
    for (const path of [`${BASE}/${id}/resend`, `${BASE}/not-a-uuid/resend`]) {
      const res = await api.post(path, {}, ravi.token);
      expect(res.status, path).to.equal(404);
      expect(res.body).to.deep.equal({ success: false, error: 'Notification endpoint not found' });
    }
    for (const path of [`${BASE}/${id}`, `${BASE}/12345`, `${BASE}/${id.toUpperCase()}x`]) {
      expect((await api.delete(path, ravi.token)).status, path).to.equal(404);
    }
    expect((await listEndpoints(app, ravi.token)).map((e) => e.id)).not.to.include(id);
    expect((await listEndpoints(app, asha.token)).map((e) => e.id)).to.include(id);
  });

  it('requires a signed-in user for everything but verify', async () => {
    const api = apiClient(app.url);
    const id = '00000000-0000-4000-8000-000000000000';
    for (const res of [
      await api.get(BASE),
      await api.post(BASE, { value: uniqueEmail() }),
      await api.post(`${BASE}/${id}/resend`),
      await api.delete(`${BASE}/${id}`),
    ]) {
      expect(res.status).to.equal(401);
      expect(res.body.success).to.equal(false);
    }
  });

  it('limits adds per user (20 an hour)', async () => {
    const user = await signIn(app);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push((await addEndpoint(app, user.token, { value: ' ' })).status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 400)).to.equal(true);
    expect(statuses[20]).to.equal(429);
    // Another user is not affected.
    expect((await addEndpoint(app, ravi.token, { value: ' ' })).status).to.equal(400);
  });
});
