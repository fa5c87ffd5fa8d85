/**
 * "Connect Upstox", "Connect Angel One" and Dhan's pasted token (issue 31, items 2 and 4) through
 * the app and the local fakes of each broker (test/helpers/fake-brokers/): the login page and back,
 * the account created under the broker's client id and synced at once, its holdings resolved to
 * our symbols, and an expired session told as the 409 the investor reads.
 */
import { BROKER_TEXTS, type ApiBrokerProvider, type ApiBrokerSync } from '@app/common/api/brokers';
import { expect } from 'chai';
import {
  ANGELONE_HOLDING,
  startFakeAngelOne,
  type FakeAngelOne,
} from '../../helpers/fake-brokers/angelone.ts';
import { DHAN_DOCS_HOLDING, startFakeDhan, type FakeDhan } from '../../helpers/fake-brokers/dhan.ts';
import { UPSTOX_API_KEY, startFakeUpstox, type FakeUpstox } from '../../helpers/fake-brokers/upstox.ts';
import { apiClient } from '../../helpers/http.ts';
import { madeBefore } from '../../helpers/made-before.ts';
import { freePort } from '../../helpers/services.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { rulesSuite } from '../rules/support.ts';
import { accounts, followCallback, holdingsOf } from './support.ts';

interface Fakes {
  appUrl: string;
  upstox: FakeUpstox;
  angelone: FakeAngelOne;
  dhan: FakeDhan;
}

/**
 * The app on a port chosen first, so that APP_URL is its own address and the redirect URLs the
 * fakes have registered (as a broker's app settings keep them) lead back to it; Kite left unset.
 */
function othersSuite() {
  let started: Fakes | undefined;
  const fakes = madeBefore('the fake brokers', () => started);
  let port = 0;
  before(async () => {
    port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    const callback = (id: string) => `${appUrl}/api/brokers/callback/${id}`;
    started = {
      appUrl,
      upstox: await startFakeUpstox({ redirectUri: callback('upstox') }),
      angelone: await startFakeAngelOne({ redirectUrl: callback('angelone') }),
      dhan: await startFakeDhan(),
    };
  });
  const { app, users } = rulesSuite(() => ({
    env: {
      PORT: String(port),
      APP_URL: started!.appUrl,
      ...started!.upstox.env,
      ...started!.angelone.env,
      ...started!.dhan.env,
    },
  }));
  after(async () => {
    await started?.upstox.close();
    await started?.angelone.close();
    await started?.dhan.close();
  });
  return { app, users, fakes };
}

/** POST /api/brokers/connect {broker}: the login URL the app answers. */
async function loginUrlOf(appUrl: string, user: SignedInUser, broker: string): Promise<URL> {
  const res = await apiClient(appUrl).post<{ login_url: string }>(
    '/api/brokers/connect',
    { broker },
    user.token,
  );
  expect(res.status, res.body.error).to.equal(200);
  return new URL(res.body.data!.login_url);
}

/** Opens a broker's login page as the browser does and reads where its link leads. */
async function linkOn(loginUrl: URL, link: 'Log in' | 'Cancel'): Promise<string> {
  const page = await fetch(loginUrl);
  expect(page.status).to.equal(200);
  const href = new RegExp(`<a href="([^"]+)">${link}</a>`).exec(await page.text())?.[1];
  expect(href, `the login page's ${link} link`).to.be.a('string');
  return href!.replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

describe('brokers: connecting Upstox, Angel One and Dhan', function () {
  this.timeout(60_000);
  const { app, users, fakes } = othersSuite();
  const api = () => apiClient(app.url);

  const sync = (user: SignedInUser, accountId: string) =>
    api().post<ApiBrokerSync>(`/api/brokers/${accountId}/sync`, {}, user.token);

  const held = async (user: SignedInUser, accountId: string) =>
    (await holdingsOf(app, user, accountId))
      .map((h) => `${h.symbol}:${h.exchange}:${Number(h.quantity)}`)
      .sort();

  it('lists the four brokers, configured as the env says: Upstox and Angel One keys set, Kite not', async () => {
    const user = await users.make();
    const res = await api().get<ApiBrokerProvider[]>('/api/brokers/providers', user.token);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal([
      { id: 'kite', name: 'Zerodha', configured: false, connect: 'redirect' },
      { id: 'upstox', name: 'Upstox', configured: true, connect: 'redirect' },
      { id: 'angelone', name: 'Angel One', configured: true, connect: 'redirect' },
      { id: 'dhan', name: 'Dhan', configured: true, connect: 'token' },
    ]);
  });

  it("connects Upstox through its dialog: the account under the Upstox user_id, YESBANK on NSE, then an expired token's 409", async () => {
    const user = await users.make();
    const loginUrl = await loginUrlOf(app.url, user, 'upstox');
    expect(loginUrl.origin + loginUrl.pathname).to.equal(fakes.upstox.env.UPSTOX_LOGIN_URL);
    const { state, ...rest } = Object.fromEntries(loginUrl.searchParams);
    expect(rest).to.deep.equal({
      client_id: UPSTOX_API_KEY,
      redirect_uri: `${fakes.appUrl}/api/brokers/callback/upstox`,
      response_type: 'code',
    });
    expect(state).to.be.a('string').with.length.above(20);

    const location = await followCallback(await linkOn(loginUrl, 'Log in'));
    expect(location).to.equal(`${fakes.appUrl}/holdings?connected=upstox`);
    const [account] = await accounts(app, user);
    expect(account).to.include({
      broker_type: 'API',
      broker_name: 'Upstox',
      broker_id: 'upstox',
      account_label: fakes.upstox.userId,
      account_status: 'CONNECTED',
    });
    const id = account!.broker_account_id;
    // The get-holdings page's rows: YESBANK and RELINFRA, both NSE, found by ISIN.
    expect(await held(user, id)).to.deep.equal(['RELINFRA:NSE:1', 'YESBANK:NSE:36']);

    fakes.upstox.expireTokens();
    const res = await sync(user, id);
    expect(res.status).to.equal(409);
    expect(res.body.error).to.equal("Upstox's session has expired: reconnect to sync");
    expect(res.body.error).to.equal(BROKER_TEXTS.expired('Upstox'));
    const [after] = await accounts(app, user);
    expect(after!.account_status).to.equal('EXPIRED');
    expect(await held(user, id)).to.deep.equal(['RELINFRA:NSE:1', 'YESBANK:NSE:36']);
  });

  it('a cancelled Upstox dialog connects nothing and says so', async () => {
    const user = await users.make();
    const location = await followCallback(await linkOn(await loginUrlOf(app.url, user, 'upstox'), 'Cancel'));
    expect(new URL(location).searchParams.get('broker_error')).to.equal(BROKER_TEXTS.denied('Upstox'));
    expect(await accounts(app, user)).to.deep.equal([]);
  });

  it('connects Angel One through the publisher login: its tokens in the callback, TATASTEEL-EQ held as TATASTEEL', async () => {
    const user = await users.make();
    const loginUrl = await loginUrlOf(app.url, user, 'angelone');
    expect(loginUrl.origin + loginUrl.pathname).to.equal(fakes.angelone.env.ANGELONE_LOGIN_URL);
    expect(loginUrl.searchParams.get('api_key')).to.equal(fakes.angelone.env.ANGELONE_API_KEY);
    const state = loginUrl.searchParams.get('state');
    expect(state).to.be.a('string').with.length.above(20);

    const callback = new URL(await linkOn(loginUrl, 'Log in'));
    expect(callback.origin + callback.pathname).to.equal(`${fakes.appUrl}/api/brokers/callback/angelone`);
    expect([...callback.searchParams.keys()].sort()).to.deep.equal([
      'auth_token',
      'feed_token',
      'refresh_token',
      'state',
    ]);
    expect(callback.searchParams.get('state')).to.equal(state);
    expect(await followCallback(callback.toString())).to.equal(`${fakes.appUrl}/holdings?connected=angelone`);

    const [account] = await accounts(app, user);
    expect(account).to.include({
      broker_type: 'API',
      broker_name: 'Angel One',
      broker_id: 'angelone',
      account_label: fakes.angelone.clientCode,
      account_status: 'CONNECTED',
    });
    const id = account!.broker_account_id;
    expect(ANGELONE_HOLDING.tradingsymbol).to.equal('TATASTEEL-EQ');
    expect(await held(user, id)).to.deep.equal(['TATASTEEL:NSE:2']);

    // The same callback again: its state is used up.
    const again = new URL(await followCallback(callback.toString()));
    expect(again.searchParams.get('broker_error')).to.equal(BROKER_TEXTS.stateExpired('Angel One'));

    fakes.angelone.expireTokens();
    const res = await sync(user, id);
    expect(res.status).to.equal(409);
    expect(res.body.error).to.equal(BROKER_TEXTS.expired('Angel One'));
    expect((await accounts(app, user))[0]!.account_status).to.equal('EXPIRED');
    expect(await held(user, id)).to.deep.equal(['TATASTEEL:NSE:2']);
  });

  describe('Dhan, with a token pasted from web.dhan.co', () => {
    const CLIENT_ID = '1000000001';
    beforeEach(() => {
      // The v1 docs' "ALL" row as SBIN (listed on NSE and BSE) and as ANDHRAPET (BSE only), with T1 shares.
      fakes.dhan.holdings = [
        { ...DHAN_DOCS_HOLDING, tradingSymbol: 'SBIN', isin: 'INE062A01020', totalQty: 5, dpQty: 5 },
        {
          ...DHAN_DOCS_HOLDING,
          tradingSymbol: 'ANDHRAPET',
          isin: 'INE714B01016',
          totalQty: 12,
          dpQty: 10,
          t1Qty: 2,
        },
      ];
    });
    const connectDhan = (user: SignedInUser, accessToken: string, clientId = CLIENT_ID) =>
      api().post<{ broker_account_id: string; sync: ApiBrokerSync }>(
        '/api/brokers/connect',
        { broker: 'dhan', client_id: clientId, access_token: accessToken },
        user.token,
      );

    it('connects with a good token and syncs at once: "ALL" held on NSE where the master lists it, else BSE', async () => {
      const user = await users.make();
      const res = await connectDhan(user, fakes.dhan.issueToken(CLIENT_ID));
      expect(res.status, res.body.error).to.equal(200);
      const { broker_account_id: id, sync: first } = res.body.data!;
      expect(first).to.include({ broker_account_id: id, added: 2, changed: 0, removed: 0 });
      const [account] = await accounts(app, user);
      expect(account).to.include({
        broker_account_id: id,
        broker_type: 'API',
        broker_name: 'Dhan',
        broker_id: 'dhan',
        account_label: CLIENT_ID,
        account_status: 'CONNECTED',
      });
      expect(await held(user, id)).to.deep.equal(['ANDHRAPET:BSE:12', 'SBIN:NSE:5']);
      expect(JSON.stringify(res.body)).not.to.include(fakes.dhan.requests.at(-1)!.headers['access-token']);
    });

    it('refuses a token of another client ID, a forged one and an expired one with the sentence, connecting nothing', async () => {
      const user = await users.make();
      const tokens = [
        fakes.dhan.issueToken('1000000002'),
        `${fakes.dhan.issueToken(CLIENT_ID).slice(0, -4)}AAAA`,
        fakes.dhan.issueToken(CLIENT_ID, new Date(Date.now() - 25 * 3_600_000)),
      ];
      for (const token of tokens) {
        const res = await connectDhan(user, token);
        expect(res.status).to.equal(400);
        expect(res.body.error).to.equal(BROKER_TEXTS.tokenRefused('Dhan'));
      }
      expect(await accounts(app, user)).to.deep.equal([]);
    });
  });
});
