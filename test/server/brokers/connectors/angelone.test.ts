/**
 * The Angel One connector against the local SmartAPI (test/helpers/fake-brokers/angelone.ts): the
 * publisher-login address, the callback's tokens checked through the profile (client code,
 * midnight IST), the documented holding in our shape, and each failure as the kind the investor is told.
 */
import { expect } from 'chai';
import { createAngelOneConnector } from '../../../../server/src/brokers/angelone/index.ts';
import type { BrokerConnector } from '../../../../server/src/brokers/connector.ts';
import { expectFailuresMapped, failureOf } from './failure.ts';
import {
  ANGELONE_API_KEY,
  startFakeAngelOne,
  type FakeAngelOne,
} from '../../../helpers/fake-brokers/angelone.ts';

const REDIRECT = 'http://127.0.0.1:9/api/brokers/callback/angelone';
/** 19:30 IST on 27 Nov 2026. */
const EVENING = new Date('2026-11-27T14:00:00Z');

describe('brokers: the Angel One connector', () => {
  let fake: FakeAngelOne;
  const connector = (timeoutMs = 2000, apiKey = ANGELONE_API_KEY): BrokerConnector =>
    createAngelOneConnector(
      { apiKey, apiUrl: fake.url, loginUrl: fake.env.ANGELONE_LOGIN_URL! },
      { timeoutMs, now: () => EVENING },
    );

  before(async () => {
    fake = await startFakeAngelOne({ redirectUrl: REDIRECT });
  });
  after(() => fake.close());
  beforeEach(() => fake.fail.clear());

  /** Opens the publisher login as a browser would and follows "Log in" (or "Cancel"). */
  async function logIn(link: 'Log in' | 'Cancel' = 'Log in'): Promise<Record<string, string>> {
    const page = await fetch(connector().loginUrl!('state-456', REDIRECT));
    expect(page.status).to.equal(200);
    const href = new RegExp(`<a href="([^"]+)">${link}</a>`)
      .exec(await page.text())![1]!
      .replace(/&amp;/g, '&');
    expect(href.startsWith(REDIRECT)).to.equal(true);
    return Object.fromEntries(new URL(href).searchParams);
  }

  it("sends the investor to Angel's publisher login with the app's api_key, the redirect URL and our state", () => {
    const url = new URL(connector().loginUrl!('state-456', REDIRECT));
    expect(url.origin + url.pathname).to.equal(fake.env.ANGELONE_LOGIN_URL);
    expect(Object.fromEntries(url.searchParams)).to.deep.equal({
      api_key: ANGELONE_API_KEY,
      redirect_url: REDIRECT,
      state: 'state-456',
    });
    expect(connector().stateOf!({ auth_token: 'x', state: 'state-456' })).to.equal('state-456');
  });

  it("turns the callback's tokens into a session of the client code, ending at midnight IST", async () => {
    const query = await logIn();
    const session = await connector().completeLogin!(query, REDIRECT);
    expect(session).to.deep.equal({
      accessToken: query.auth_token,
      extra: { feed_token: query.feed_token, refresh_token: query.refresh_token },
      clientId: fake.clientCode,
      expiresAt: new Date('2026-11-27T18:30:00Z'), // 00:00 IST, 28 Nov
    });
    const profile = fake.requests.findLast((r) => r.path.endsWith('/getProfile'))!;
    expect(profile.headers).to.include({
      'x-privatekey': ANGELONE_API_KEY,
      'x-usertype': 'USER',
      'x-sourceid': 'WEB',
      authorization: `Bearer ${query.auth_token}`,
    });
  });

  it('is denied when the investor cancels, and says expired when the token is refused', async () => {
    expect((await failureOf(connector().completeLogin!(await logIn('Cancel'), REDIRECT))).kind).to.equal(
      'denied',
    );
    const forged = { ...(await logIn()), auth_token: 'eyJhbGciOiJIUzUxMiJ9.forged.token' };
    expect((await failureOf(connector().completeLogin!(forged, REDIRECT))).kind).to.equal('expired');
  });

  it('reads the documented holding with its -EQ symbol, exchange, ISIN, quantity and average price', async () => {
    const session = await connector().completeLogin!(await logIn(), REDIRECT);
    expect(await connector().holdings(session)).to.deep.equal([
      {
        brokerSymbol: 'TATASTEEL-EQ',
        exchange: 'NSE',
        isin: 'INE081A01020',
        quantity: 2,
        averagePrice: 111.87,
      },
    ]);
  });

  it('reads `data: null` as no holdings', async () => {
    const session = await connector().completeLogin!(await logIn(), REDIRECT);
    fake.fail.push('no_holdings');
    expect(await connector().holdings(session)).to.deep.equal([]);
  });

  it("maps Angel's token refusal, its 403 rate limit, 500, silence and a malformed answer, never naming the token", async () => {
    const session = await connector().completeLogin!(await logIn(), REDIRECT);
    await expectFailuresMapped(fake, () => connector(200).holdings(session), session.accessToken);
    fake.expireTokens();
    expect((await failureOf(connector().holdings(session))).kind).to.equal('expired');
  });

  it('says malformed when the profile has no client code', async () => {
    const query = await logIn();
    fake.fail.push('malformed');
    expect((await failureOf(connector().completeLogin!(query, REDIRECT))).kind).to.equal('malformed');
  });
});
