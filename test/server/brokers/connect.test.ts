/**
 * "Connect Zerodha" (issue 31, item 2) through the fake Kite Connect: the login URL and its
 * single-use state, the callback that creates (or finds) the account, stores the session
 * sealed and syncs at once, and every failure told on Settings.
 */
import { BROKER_TEXTS, type ApiBrokerProvider } from '@app/common/api/brokers';
import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { brokerAccounts } from '../../../server/src/db/schema.ts';
import { FAKE_KITE_API_KEY } from '../../helpers/fake-brokers/kite.ts';
import { apiClient } from '../../helpers/http.ts';
import {
  accounts,
  brokerError,
  connectKite,
  followCallback,
  holdingsOf,
  kiteLoginUrl,
  kiteSuite,
} from './support.ts';

describe('brokers: connecting Zerodha (Kite Connect)', function () {
  this.timeout(60_000);
  const { app, fake, users, advance } = kiteSuite();

  it('lists the four brokers, Kite configured from its keys and Dhan always (a pasted token)', async () => {
    const user = await users.make();
    const res = await apiClient(app.url).get<ApiBrokerProvider[]>('/api/brokers/providers', user.token);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal([
      { id: 'kite', name: 'Zerodha', configured: true, connect: 'redirect' },
      { id: 'upstox', name: 'Upstox', configured: false, connect: 'redirect' },
      { id: 'angelone', name: 'Angel One', configured: false, connect: 'redirect' },
      { id: 'dhan', name: 'Dhan', configured: true, connect: 'token' },
    ]);
    const upstox = await apiClient(app.url).post('/api/brokers/connect', { broker: 'upstox' }, user.token);
    expect(upstox.status).to.equal(400);
    expect(upstox.body.error).to.equal(BROKER_TEXTS.notConfigured('Upstox'));
  });

  it('connects: the account is created with the client id, synced at once, its token sealed', async () => {
    const user = await users.make();
    const loginUrl = new URL(await kiteLoginUrl(app, user));
    expect(loginUrl.searchParams.get('v')).to.equal('3');
    expect(loginUrl.searchParams.get('api_key')).to.equal(FAKE_KITE_API_KEY);
    const state = new URLSearchParams(loginUrl.searchParams.get('redirect_params') ?? '').get('state');
    expect(state).to.be.a('string').with.length.above(20);

    const callback = await fake.loginRedirect(loginUrl.toString());
    const location = await followCallback(callback);
    expect(location).to.equal(`${app.runtime.deps.config.appUrl}/holdings?connected=kite`);

    const [account] = await accounts(app, user);
    expect(account).to.include({
      broker_type: 'API',
      broker_name: 'Zerodha',
      broker_id: 'kite',
      account_label: 'XX0000', // user_id of generate_session.json
      account_status: 'CONNECTED',
      holdings_count: 2,
    });
    expect(account!.last_synced_at).to.be.a('string');
    // The next 06:00 IST (00:30 UTC) after now.
    const expires = new Date(account!.token_expires_at!);
    expect(expires.getUTCHours() * 60 + expires.getUTCMinutes()).to.equal(30);
    expect(expires.getTime() - Date.now()).to.be.within(0, 86_400_000);

    const held = await holdingsOf(app, user, account!.broker_account_id);
    expect(held.map((h) => [h.symbol, h.exchange, Number(h.quantity)]).sort()).to.deep.equal([
      ['AARON', 'NSE', 1],
      ['SBIN', 'BSE', 16],
    ]);

    const [row] = await app.runtime.deps.db
      .select()
      .from(brokerAccounts)
      .where(eq(brokerAccounts.id, account!.broker_account_id));
    const token = fake.issuedTokens().at(-1)!;
    expect(JSON.stringify(row)).not.to.include(token);
    expect(row!.tokenCiphertext).to.match(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);

    // The same callback again: its state is used up.
    expect(brokerError(await followCallback(callback))).to.equal(BROKER_TEXTS.stateExpired('Zerodha'));
  });

  it('a second connect lands on the same account', async () => {
    const user = await users.make();
    await connectKite(app, fake, user);
    const [first] = await accounts(app, user);
    expect(await connectKite(app, fake, user)).to.match(/\/holdings\?connected=kite$/);
    const after = await accounts(app, user);
    expect(after.map((a) => a.broker_account_id)).to.deep.equal([first!.broker_account_id]);
    expect(fake.issuedTokens()).to.have.length.of.at.least(2);
  });

  it('a state older than ten minutes is refused', async () => {
    const user = await users.make();
    const callback = await fake.loginRedirect(await kiteLoginUrl(app, user));
    advance(10 * 60_000 + 1_000);
    expect(brokerError(await followCallback(callback))).to.equal(BROKER_TEXTS.stateExpired('Zerodha'));
    expect(await accounts(app, user)).to.deep.equal([]);
  });

  it('a cancelled login connects nothing and says so', async () => {
    const user = await users.make();
    const callback = await fake.loginRedirect(await kiteLoginUrl(app, user), 'cancel');
    expect(brokerError(await followCallback(callback))).to.equal(BROKER_TEXTS.denied('Zerodha'));
    expect(await accounts(app, user)).to.deep.equal([]);
  });

  it('a state belongs to the user who asked for it, and to that broker only', async () => {
    const alice = await users.make();
    const bob = await users.make();
    const callback = await fake.loginRedirect(await kiteLoginUrl(app, alice));
    // Bob's browser finishing Alice's login connects Alice's account, never Bob's.
    await followCallback(callback);
    expect(await accounts(app, bob)).to.deep.equal([]);
    expect((await accounts(app, alice)).map((a) => a.broker_id)).to.deep.equal(['kite']);
    // A state made for Kite is no state at another broker's callback.
    const other = (await fake.loginRedirect(await kiteLoginUrl(app, bob))).replace(
      '/callback/kite',
      '/callback/upstox',
    );
    expect(brokerError(await followCallback(other))).to.equal(BROKER_TEXTS.notConfigured('Upstox'));
    const unknown = `${app.url}/api/brokers/callback/kite?status=success&request_token=x&state=forged`;
    expect(brokerError(await followCallback(unknown))).to.equal(BROKER_TEXTS.stateExpired('Zerodha'));
    expect(await accounts(app, bob)).to.deep.equal([]);
  });
});

describe('brokers: a Kite app set up with the wrong secret', function () {
  this.timeout(60_000);
  const { app, fake, users } = kiteSuite({
    env: { KITE_API_SECRET: 'not-the-secret-kite-has-for-this-app' },
  });

  it('the checksum is refused: Settings says the keys are wrong, nothing is connected', async () => {
    const user = await users.make();
    const location = await connectKite(app, fake, user);
    expect(brokerError(location)).to.equal(BROKER_TEXTS.wrongKeys('Zerodha'));
    const res = await apiClient(app.url).get<unknown[]>('/api/brokers', user.token);
    expect(res.body.data).to.deep.equal([]);
  });
});
