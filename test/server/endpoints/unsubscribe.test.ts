/**
 * One-click unsubscribe (issue #28, RFC 8058): every alert email carries a List-Unsubscribe link
 * of its own address; a mail client's POST to it stops that address's alerts, a person opening it
 * is asked first, and a link that is not ours changes nothing.
 */
import { expect } from 'chai';
import { sendGridSuite } from '../../helpers/fake-sendgrid.ts';
import { signIn } from '../../helpers/users.ts';
import { waitFor } from '../../helpers/wait.ts';
import { crossStop, forgetUsers, rulesSuite } from '../rules/support.ts';
import { listEndpoints, outboxFor } from './support.ts';

const UNSUBSCRIBE = /^<(http:\/\/[^>]+\/api\/notification-endpoints\/unsubscribe\?token=[^>]+)>$/;

describe('one-click unsubscribe from alert emails', function () {
  this.timeout(60_000);
  const { app, users } = rulesSuite();

  it('stops the alerts to the address a mail client unsubscribes, with one POST and no sign-in', async () => {
    const user = await users.make();
    await crossStop(app, user, 'TATASTEEL');
    const [mail] = await waitFor('the alert email', async () => {
      const box = await outboxFor(app, user.email);
      return box.length > 0 ? box : undefined;
    });
    expect(mail!.headers?.['List-Unsubscribe-Post']).to.equal('List-Unsubscribe=One-Click');
    const link = UNSUBSCRIBE.exec(mail!.headers?.['List-Unsubscribe'] ?? '')?.[1];
    expect(link, 'a List-Unsubscribe link').to.be.a('string');
    const path = new URL(link!).pathname + new URL(link!).search;

    // A person who opens the link is asked first: nothing changes on a GET.
    const opened = await fetch(`${app.url}${path}`, { redirect: 'manual' });
    expect(opened.status).to.equal(302);
    expect(opened.headers.get('location')).to.match(/^\/unsubscribe\?token=/);
    expect((await listEndpoints(app, user.token))[0]).to.deep.include({ is_active: true });

    const clicked = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(clicked.status).to.equal(200);
    expect(((await clicked.json()) as { data: unknown }).data).to.deep.equal({
      value: user.email,
      unsubscribed: true,
    });
    expect((await listEndpoints(app, user.token))[0]).to.deep.include({ is_active: false });
  });

  it("refuses a link that is not ours with a sentence, and changes no one's address", async () => {
    const user = await users.make();
    const [endpoint] = await listEndpoints(app, user.token);
    for (const token of [`${endpoint!.id}.forged`, 'nonsense', '']) {
      const res = await fetch(`${app.url}/api/notification-endpoints/unsubscribe?token=${token}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(res.status, token).to.equal(404);
      expect(((await res.json()) as { error: string }).error).to.equal(
        'This unsubscribe link is not valid. Manage your alert emails in Settings.',
      );
    }
    // The route reads no body: a long form changes nothing about the answer.
    const big = await fetch(`${app.url}/api/notification-endpoints/unsubscribe?token=x`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'x'.repeat(5000),
    });
    expect(big.status).to.equal(404);
    expect((await listEndpoints(app, user.token))[0]).to.deep.include({ is_active: true });
  });
});

describe('one-click unsubscribe through SendGrid', function () {
  this.timeout(60_000);
  const made: Awaited<ReturnType<typeof signIn>>[] = [];
  const { app, fake } = sendGridSuite({ embeddedStreamer: false }, () => forgetUsers(app, made));

  it("puts each recipient's own List-Unsubscribe link in their personalization", async () => {
    const user = await signIn(app);
    made.push(user);
    await crossStop(app, user, 'JSWSTEEL');
    const [mail] = await waitFor('the alert email', async () => {
      const sent = fake.mailsTo(user.email);
      return sent.length > 0 ? sent : undefined;
    });
    expect(mail!.headers?.['List-Unsubscribe']).to.match(UNSUBSCRIBE);
    expect(mail!.headers?.['List-Unsubscribe-Post']).to.equal('List-Unsubscribe=One-Click');
  });
});
