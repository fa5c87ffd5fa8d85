import { expect } from 'chai';
import { sendGridErrorBody, sendGridSuite } from '../../helpers/fake-sendgrid.ts';
import { apiClient } from '../../helpers/http.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import {
  addEndpoint,
  APP_URL,
  backdate,
  BASE,
  listEndpoints,
  outboxFor,
  uniqueEmail,
  verifyLink,
} from './support.ts';

describe('notification endpoints: verification email through SendGrid (local fake)', () => {
  const { app, fake } = sendGridSuite({
    env: { APP_URL, MAIL_FROM: 'Portfolio Guard <alerts@pg.example>' },
  });
  let user: SignedInUser;
  before(async () => {
    user = await signIn(app);
  });

  it('demo mode with SendGrid configured still sends through SendGrid, not the outbox', async () => {
    expect(app.runtime.deps.mailer.kind).to.equal('sendgrid');
    const address = uniqueEmail('sg');
    const res = await addEndpoint(app, user.token, { value: address });
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({ email_sent: true });
    expect(fake.requestsTo(address)).to.have.length(1);
    const body = fake.requestsTo(address)[0]!.body;
    const text = body.content.find((c) => c.type === 'text/plain')!.value;
    expect(verifyLink(text).startsWith(`${APP_URL}/verify-endpoint?token=`)).to.equal(true);
    expect(await outboxFor(app, address)).to.deep.equal([]);
  });

  it('a transient failure keeps the endpoint: 201 with email_sent false and a notice', async () => {
    const address = uniqueEmail('later');
    fake.scriptFor(address, 500);
    const res = await addEndpoint(app, user.token, { value: address });
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({ value: address, verification_status: 'pending', email_sent: false });
    expect(res.body.data!.notice).to.match(/couldn't send the verification email just now/);
    expect((await listEndpoints(app, user.token)).map((e) => e.value)).to.include(address);

    // A minute later Resend delivers a working link.
    await backdate(app, res.body.data!.id, { lastSentAt: new Date(Date.now() - 61_000) });
    const resent = await apiClient(app.url).post(`${BASE}/${res.body.data!.id}/resend`, {}, user.token);
    expect(resent.status).to.equal(200);
    expect(fake.requestsTo(address).map((r) => r.status)).to.deep.equal([500, 202]);
  });

  it('a refused message keeps the endpoint too, with a different notice', async () => {
    const address = uniqueEmail('refused');
    fake.scriptFor(address, {
      status: 400,
      body: sendGridErrorBody('Does not contain a valid address.', 'personalizations.0.to'),
    });
    const res = await addEndpoint(app, user.token, { value: address });
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({ email_sent: false });
    expect(res.body.data!.notice).to.match(/couldn't send a verification email to this address/);
  });

  it('resend answers 503 with Retry-After on a transient failure and 502 when refused', async () => {
    const api = apiClient(app.url);
    const address = uniqueEmail('resend');
    const added = await addEndpoint(app, user.token, { value: address });
    const id = added.body.data!.id;

    fake.scriptFor(address, 429);
    await backdate(app, id, { lastSentAt: new Date(Date.now() - 61_000) });
    const deferred = await api.post(`${BASE}/${id}/resend`, {}, user.token);
    expect(deferred.status).to.equal(503);
    expect(deferred.headers.get('retry-after')).to.equal('60');
    expect(deferred.body.error).to.match(/couldn't send the verification email just now/);

    fake.scriptFor(address, 403);
    await backdate(app, id, { lastSentAt: new Date(Date.now() - 61_000) });
    const refused = await api.post(`${BASE}/${id}/resend`, {}, user.token);
    expect(refused.status).to.equal(502);
    expect(refused.body.success).to.equal(false);
    expect(refused.body.error).to.match(/couldn't send a verification email to this address/);
  });
});
