import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { pageEvents } from '../../../server/src/db/schema.ts';
import { appSuite } from '../../helpers/app.ts';
import { request } from '../../helpers/http.ts';
import { signIn } from '../../helpers/users.ts';

describe('http: page events', () => {
  const { app } = appSuite();

  const eventsAt = (path: string) =>
    app.runtime.deps.db.select().from(pageEvents).where(eq(pageEvents.path, path));

  it('records an anonymous page view with 201', async () => {
    const path = `/portfolio/${randomUUID()}`;
    const res = await request(app.url, 'POST', '/api/events', { path, referrer: 'https://example.com/' });
    expect(res.status).to.equal(201);
    expect(res.body).to.deep.equal({ success: true, data: { recorded: true } });
    const rows = await eventsAt(path);
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ name: 'page_view', userId: null, referrer: 'https://example.com/' });
  });

  it("records the signed-in user's id, and ignores a bad token rather than refusing the event", async () => {
    const user = await signIn(app);
    const mine = `/rules/${randomUUID()}`;
    expect(
      (await request(app.url, 'POST', '/api/events', { path: mine }, { token: user.token })).status,
    ).to.equal(201);
    expect((await eventsAt(mine))[0]?.userId).to.equal(user.id);

    const forged = `/rules/${randomUUID()}`;
    const res = await request(app.url, 'POST', '/api/events', { path: forged }, { token: 'not-a-token' });
    expect(res.status).to.equal(201);
    expect((await eventsAt(forged))[0]?.userId).to.equal(null);
  });

  it('refuses a path that does not start with /, recording nothing', async () => {
    for (const path of ['portfolio', 'https://evil.example.com/', '', ' /leading-space']) {
      const res = await request(app.url, 'POST', '/api/events', { path });
      expect(res.status, path).to.equal(400);
      expect(res.body.success).to.equal(false);
      expect(res.body.error).to.be.a('string').and.not.equal('');
      expect(await eventsAt(path)).to.have.length(0);
    }
  });

  it('refuses an unknown event name', async () => {
    const path = `/x/${randomUUID()}`;
    const res = await request(app.url, 'POST', '/api/events', { name: 'purchase', path });
    expect(res.status).to.equal(400);
    expect(await eventsAt(path)).to.have.length(0);
  });
});
