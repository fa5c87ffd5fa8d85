/**
 * The Upstox connector against the local Upstox (test/helpers/fake-brokers/upstox.ts): the login
 * dialog's address, the code exchanged once for a session that ends at 03:30 IST, the documented
 * holdings in our shape, and each failure as the kind the investor is told.
 */
import { expect } from 'chai';
import { createUpstoxConnector } from '../../../../server/src/brokers/upstox/index.ts';
import type { BrokerConnector } from '../../../../server/src/brokers/connector.ts';
import { expectFailuresMapped, failureOf } from './failure.ts';
import {
  startFakeUpstox,
  UPSTOX_API_KEY,
  UPSTOX_API_SECRET,
  type FakeUpstox,
} from '../../../helpers/fake-brokers/upstox.ts';

const REDIRECT = 'http://127.0.0.1:9/api/brokers/callback/upstox';
/** 19:30 IST on 27 Nov 2026. */
const EVENING = new Date('2026-11-27T14:00:00Z');

describe('brokers: the Upstox connector', () => {
  let fake: FakeUpstox;
  let now = EVENING;
  const connector = (timeoutMs = 2000): BrokerConnector =>
    createUpstoxConnector(
      {
        apiKey: UPSTOX_API_KEY,
        apiSecret: UPSTOX_API_SECRET,
        apiUrl: fake.url,
        loginUrl: fake.env.UPSTOX_LOGIN_URL!,
      },
      { timeoutMs, now: () => now },
    );

  before(async () => {
    fake = await startFakeUpstox({ redirectUri: REDIRECT });
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.fail.clear();
    now = EVENING;
  });

  /** Opens the dialog as a browser would and follows its "Log in" (or "Cancel") link. */
  async function logIn(link: 'Log in' | 'Cancel' = 'Log in'): Promise<Record<string, string>> {
    const page = await fetch(connector().loginUrl!('state-123', REDIRECT));
    expect(page.status).to.equal(200);
    const html = await page.text();
    const href = new RegExp(`<a href="([^"]+)">${link}</a>`).exec(html)![1]!.replace(/&amp;/g, '&');
    return Object.fromEntries(new URL(href).searchParams);
  }

  it("sends the investor to Upstox's dialog with the app's client_id, the redirect URI, response_type=code and our state", () => {
    const url = new URL(connector().loginUrl!('state-123', REDIRECT));
    expect(url.origin + url.pathname).to.equal(fake.env.UPSTOX_LOGIN_URL);
    expect(Object.fromEntries(url.searchParams)).to.deep.equal({
      client_id: UPSTOX_API_KEY,
      redirect_uri: REDIRECT,
      response_type: 'code',
      state: 'state-123',
    });
    expect(connector().stateOf!({ code: 'x', state: 'state-123' })).to.equal('state-123');
  });

  it('exchanges the code for a session of the Upstox user that ends at 03:30 IST the next morning', async () => {
    const query = await logIn();
    expect(query.state).to.equal('state-123');
    const session = await connector().completeLogin!(query, REDIRECT);
    expect(session.clientId).to.equal(fake.userId);
    expect(session.accessToken).to.be.a('string').and.not.equal('');
    expect(session.expiresAt.toISOString()).to.equal('2026-11-27T22:00:00.000Z'); // 03:30 IST, 28 Nov
    const exchange = fake.requests.find((r) => r.path === '/v2/login/authorization/token')!;
    expect(Object.fromEntries(new URLSearchParams(exchange.body))).to.deep.equal({
      code: query.code,
      client_id: UPSTOX_API_KEY,
      client_secret: UPSTOX_API_SECRET,
      redirect_uri: REDIRECT,
      grant_type: 'authorization_code',
    });
  });

  it('gives a token made at 02:00 IST until 03:30 the same morning', async () => {
    now = new Date('2026-11-26T20:30:00Z'); // 02:00 IST, 27 Nov
    const session = await connector().completeLogin!(await logIn(), REDIRECT);
    expect(session.expiresAt.toISOString()).to.equal('2026-11-26T22:00:00.000Z');
  });

  it('reads the documented holdings: symbol, exchange, ISIN, total quantity, average price', async () => {
    const session = await connector().completeLogin!(await logIn(), REDIRECT);
    expect(await connector().holdings(session)).to.deep.equal([
      { brokerSymbol: 'YESBANK', exchange: 'NSE', isin: 'INE528G01035', quantity: 36, averagePrice: 18.75 },
      { brokerSymbol: 'RELINFRA', exchange: 'NSE', isin: 'INE036A01016', quantity: 1, averagePrice: 192.55 },
    ]);
    const call = fake.requests.findLast((r) => r.path === '/v2/portfolio/long-term-holdings')!;
    expect(call.headers.authorization).to.equal(`Bearer ${session.accessToken}`);
    expect(call.headers.accept).to.equal('application/json');
  });

  it('is denied when the investor cancels, or the code was already used', async () => {
    expect((await failureOf(connector().completeLogin!(await logIn('Cancel'), REDIRECT))).kind).to.equal(
      'denied',
    );
    const query = await logIn();
    await connector().completeLogin!(query, REDIRECT);
    expect((await failureOf(connector().completeLogin!(query, REDIRECT))).kind).to.equal('denied');
  });

  it("says wrong_keys when Upstox refuses the app's secret or redirect URI", async () => {
    const wrongSecret = createUpstoxConnector(
      {
        apiKey: UPSTOX_API_KEY,
        apiSecret: 'not-the-secret',
        apiUrl: fake.url,
        loginUrl: fake.env.UPSTOX_LOGIN_URL!,
      },
      { timeoutMs: 2000, now: () => now },
    );
    expect((await failureOf(wrongSecret.completeLogin!(await logIn(), REDIRECT))).kind).to.equal(
      'wrong_keys',
    );
    const other = await failureOf(connector().completeLogin!(await logIn(), 'http://127.0.0.1:9/elsewhere'));
    expect(other.kind).to.equal('wrong_keys');
  });

  it('maps an expired token, 429, 500, silence and a malformed answer, never naming the token', async () => {
    const session = await connector().completeLogin!(await logIn(), REDIRECT);
    await expectFailuresMapped(fake, () => connector(200).holdings(session), session.accessToken);
    fake.fail.push('rate_limited');
    expect((await failureOf(connector().holdings(session))).retryAfterS).to.equal(7);
    fake.expireTokens();
    expect((await failureOf(connector().holdings(session))).kind).to.equal('expired');
  });

  it('reads an account with no holdings as none', async () => {
    const session = await connector().completeLogin!(await logIn(), REDIRECT);
    fake.fail.push('no_holdings');
    expect(await connector().holdings(session)).to.deep.equal([]);
  });

  it('is unavailable when nothing listens at the API address', async () => {
    const closed = createUpstoxConnector(
      {
        apiKey: UPSTOX_API_KEY,
        apiSecret: UPSTOX_API_SECRET,
        apiUrl: 'http://127.0.0.1:9',
        loginUrl: fake.env.UPSTOX_LOGIN_URL!,
      },
      { timeoutMs: 2000, now: () => now },
    );
    const err = await failureOf(closed.holdings({ accessToken: 't', clientId: 'c', expiresAt: now }));
    expect(err.kind).to.equal('unavailable');
  });
});
