/**
 * What each endpoint receives (docs/notifications.md#what-each-endpoint-receives): PATCH
 * /api/notification-endpoints/:id {notices} saves a subset of alert, digest, corporate_action on
 * the user's own endpoint, answers with the endpoint, refuses anything else with a sentence.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { ApiNotificationEndpoint } from '@app/common/api/endpoints';
import { appSuite } from '../../helpers/app.ts';
import { request } from '../../helpers/http.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import { addEndpoint, APP_URL, BASE, listEndpoints, uniqueEmail } from './support.ts';

const NOTICES_MESSAGE =
  'notices: give a list of what this endpoint receives, each one of alert, digest, corporate_action (an empty list for none)';

describe('notification endpoints: what each one receives (PATCH notices)', () => {
  const { app, api } = appSuite({ env: { APP_URL } });
  let asha: SignedInUser;
  let ravi: SignedInUser;
  before(async () => {
    asha = await signIn(app);
    ravi = await signIn(app);
  });

  const accountEndpoint = async (user: SignedInUser) => (await listEndpoints(app, user.token))[0]!;

  it('saves the ticked kinds, in one order and without repeats, and lists them after', async () => {
    const own = await accountEndpoint(asha);
    const res = await api.patch<ApiNotificationEndpoint>(
      `${BASE}/${own.id}`,
      { notices: ['corporate_action', 'alert', 'alert'] },
      asha.token,
    );
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal({ ...own, notices: ['alert', 'corporate_action'] });
    expect((await accountEndpoint(asha)).notices).to.deep.equal(['alert', 'corporate_action']);

    const none = await api.patch<ApiNotificationEndpoint>(`${BASE}/${own.id}`, { notices: [] }, asha.token);
    expect(none.status, 'unticking everything is allowed').to.equal(200);
    expect((await accountEndpoint(asha)).notices).to.deep.equal([]);
  });

  it('works on an added endpoint still pending verification, leaving the others as they were', async () => {
    const added = (await addEndpoint(app, asha.token, { value: uniqueEmail('asha-notices') })).body.data!;
    const res = await api.patch<ApiNotificationEndpoint>(
      `${BASE}/${added.id}`,
      { notices: ['digest'] },
      asha.token,
    );
    expect(res.body.data).to.include({ id: added.id, verification_status: 'pending' });
    expect(res.body.data!.notices).to.deep.equal(['digest']);
    const list = await listEndpoints(app, asha.token);
    expect(list.find((e) => e.id === added.id)!.notices).to.deep.equal(['digest']);
    expect(list.filter((e) => e.id !== added.id).every((e) => !e.notices.includes('digest'))).to.equal(true);
  });

  it('refuses a kind it does not know, a missing or non-list notices, and other fields, with a sentence', async () => {
    const own = await accountEndpoint(ravi);
    const cases: [unknown, string][] = [
      [{ notices: ['alert', 'sms'] }, NOTICES_MESSAGE],
      [{ notices: 'alert' }, NOTICES_MESSAGE],
      [{}, NOTICES_MESSAGE],
      [[], NOTICES_MESSAGE],
      [
        { notices: ['alert'], value: 'someone@else.com' },
        'Only notices can be changed: send {"notices": ["alert", "digest"]}.',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await api.patch(`${BASE}/${own.id}`, body, ravi.token);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error, JSON.stringify(body)).to.equal(message);
    }
    expect((await accountEndpoint(ravi)).notices, 'nothing changed').to.deep.equal([
      'alert',
      'digest',
      'corporate_action',
    ]);
  });

  it("answers 404 for another user's endpoint and a malformed id, 401 signed out, 413 over 1 KB", async () => {
    const ashas = await accountEndpoint(asha);
    const before = ashas.notices;
    for (const id of [ashas.id, randomUUID(), 'not-an-id']) {
      const res = await api.patch(`${BASE}/${id}`, { notices: ['alert'] }, ravi.token);
      expect(res.status, id).to.equal(404);
      expect(res.body.error).to.equal('Notification endpoint not found');
    }
    expect((await accountEndpoint(asha)).notices).to.deep.equal(before);
    expect((await api.patch(`${BASE}/${ashas.id}`, { notices: ['alert'] })).status).to.equal(401);
    const big = await request(
      app.url,
      'PATCH',
      `${BASE}/${ashas.id}`,
      { notices: ['alert'], pad: 'x'.repeat(2000) },
      {
        token: asha.token,
      },
    );
    expect(big.status).to.equal(413);
    expect(big.body.error).to.equal('The request body is too large: this request takes at most 1 KB.');
  });
});
