/**
 * GET /api/users/me/export: a JSON file of everything the signed-in user holds (docs/privacy.md),
 * downloaded as an attachment, with none of another user's rows and none of the secrets.
 */
import { expect } from 'chai';
import { appSuite } from '../../helpers/app.ts';
import { request } from '../../helpers/http.ts';
import { signIn } from '../../helpers/users.ts';
import { seedEverything } from './support.ts';

interface ExportFile {
  account: Record<string, unknown>;
  notification_endpoints: Array<Record<string, unknown>>;
  broker_accounts: Array<{ holdings: Array<Record<string, unknown>> } & Record<string, unknown>>;
  position_rules: Array<Record<string, unknown>>;
  price_alerts: Array<Record<string, unknown>>;
  history: Array<Record<string, unknown>>;
}

const download = (url: string, token: string) =>
  fetch(`${url}/api/users/me/export`, { headers: { authorization: `Bearer ${token}` } });

describe('privacy: export my data', function () {
  this.timeout(30_000);
  const { app } = appSuite({ ownDatabase: true });

  it("downloads the user's account, addresses, holdings, rules, price alerts and History as a JSON file", async () => {
    const alice = await signIn(app, { name: 'Alice Export' });
    const bob = await signIn(app);
    const mine = await seedEverything(app, alice, 'TCS');
    const theirs = await seedEverything(app, bob, 'ITC');

    const res = await download(app.url, alice.token);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    expect(res.headers.get('content-disposition')).to.match(
      /^attachment; filename="portfolio-guard-export-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const text = await res.text();
    const file = JSON.parse(text) as ExportFile;

    expect(file.account).to.include({ id: alice.id, email: alice.email, name: 'Alice Export' });
    expect(file.account).to.include({ protect_new_holdings: false, evening_digest: true });
    expect(file.notification_endpoints.map((e) => e.value)).to.have.members([
      alice.email,
      `second-${alice.email}`,
    ]);
    const holdings = file.broker_accounts.flatMap((a) => a.holdings);
    expect(holdings.map((h) => [h.id, h.symbol, h.quantity])).to.deep.equal([
      [mine.holding, 'TCS', '3.0000'],
    ]);
    expect(file.position_rules.map((r) => r.id)).to.deep.equal([mine.rule]);
    expect(file.price_alerts.map((a) => a.id)).to.deep.equal([mine.priceAlert]);
    expect(file.history.map((h) => [h.id, h.message])).to.deep.equal([
      [mine.execution, 'TCS fell to ₹2,899.00'],
    ]);

    // Nothing of Bob's, and no secrets.
    for (const id of [bob.id, bob.email, ...Object.values(theirs)]) expect(text).not.to.include(id);
    for (const secret of ['token_hash', 'google_sub', 'token_version', 'refresh'])
      expect(text).not.to.include(secret);
  });

  it('is refused without a token', async () => {
    expect((await request(app.url, 'GET', '/api/users/me/export')).status).to.equal(401);
  });

  it('allows a few exports a minute per user, then 429 with a sentence', async () => {
    const user = await signIn(app);
    const other = await signIn(app);
    for (let i = 0; i < 3; i++) expect((await download(app.url, user.token)).status).to.equal(200);
    const refused = await download(app.url, user.token);
    expect(refused.status).to.equal(429);
    expect(((await refused.json()) as { error: string }).error).to.match(/\./);
    // Another user is not held back by it.
    expect((await download(app.url, other.token)).status).to.equal(200);
  });
});
