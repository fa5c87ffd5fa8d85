/**
 * The Dhan connector against the local DhanHQ (test/helpers/fake-brokers/dhan.ts): a pasted token
 * checked through the profile (the client ID must match, the JWT's expiry kept), the holdings'
 * bare array in our shape (the DhanHQ-py fixture and the documented "ALL" row), and each failure
 * as the kind the investor is told.
 */
import { expect } from 'chai';
import { createDhanConnector } from '../../../../server/src/brokers/dhan/index.ts';
import type { BrokerConnector } from '../../../../server/src/brokers/connector.ts';
import { expectFailuresMapped, failureOf } from './failure.ts';
import {
  DHAN_DOCS_HOLDING,
  dhanFixtureHoldings,
  startFakeDhan,
  type FakeDhan,
} from '../../../helpers/fake-brokers/dhan.ts';

const CLIENT_ID = '1000000001';

describe('brokers: the Dhan connector', () => {
  let fake: FakeDhan;
  const connector = (timeoutMs = 2000): BrokerConnector =>
    createDhanConnector({ apiUrl: fake.url }, { timeoutMs, now: () => new Date() });

  before(async () => {
    fake = await startFakeDhan();
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.fail.clear();
    fake.holdings = dhanFixtureHoldings();
  });

  it("checks a pasted token with Dhan's profile and keeps its 24-hour expiry from the token", async () => {
    const issuedAt = new Date(Date.now() - 3_600_000);
    const accessToken = fake.issueToken(CLIENT_ID, issuedAt);
    const session = await connector().sessionFromToken!({ clientId: CLIENT_ID, accessToken });
    expect(session.clientId).to.equal(CLIENT_ID);
    expect(session.accessToken).to.equal(accessToken);
    expect(session.expiresAt.getTime()).to.equal(Math.floor((issuedAt.getTime() + 86_400_000) / 1000) * 1000);
    const profile = fake.requests.findLast((r) => r.path === '/profile')!;
    expect(profile.headers['access-token']).to.equal(accessToken);
    expect(profile.headers['client-id']).to.equal(CLIENT_ID);
  });

  it('refuses a token that belongs to another client ID, and an invalid token as expired', async () => {
    // Dhan itself refuses a token sent with another client-id (DH-901).
    const other = fake.issueToken('1000000002');
    expect(
      (await failureOf(connector().sessionFromToken!({ clientId: CLIENT_ID, accessToken: other }))).kind,
    ).to.equal('expired');
    const forged = `${fake.issueToken(CLIENT_ID).slice(0, -4)}AAAA`;
    expect(
      (await failureOf(connector().sessionFromToken!({ clientId: CLIENT_ID, accessToken: forged }))).kind,
    ).to.equal('expired');
  });

  it("reads the holdings' bare array: the DhanHQ-py fixture's row, and the documented ALL row with no exchange", async () => {
    const session = await connector().sessionFromToken!({
      clientId: CLIENT_ID,
      accessToken: fake.issueToken(CLIENT_ID),
    });
    const fixture = dhanFixtureHoldings()[0]!;
    expect(await connector().holdings(session)).to.deep.equal([
      {
        brokerSymbol: fixture.tradingSymbol,
        exchange: 'NSE',
        isin: fixture.isin,
        quantity: fixture.totalQty,
        averagePrice: fixture.avgCostPrice,
      },
    ]);
    fake.holdings = [
      DHAN_DOCS_HOLDING,
      { ...DHAN_DOCS_HOLDING, tradingSymbol: 'TCS', isin: 'INE467B01029', totalQty: 12, dpQty: 10, t1Qty: 2 },
    ];
    expect(await connector().holdings(session)).to.deep.equal([
      { brokerSymbol: 'HDFC', exchange: null, isin: 'INE001A01036', quantity: 1000, averagePrice: 2655 },
      { brokerSymbol: 'TCS', exchange: null, isin: 'INE467B01029', quantity: 12, averagePrice: 2655 },
    ]);
  });

  it("reads Dhan's no-holdings error object as no holdings", async () => {
    const session = await connector().sessionFromToken!({
      clientId: CLIENT_ID,
      accessToken: fake.issueToken(CLIENT_ID),
    });
    fake.fail.push('no_holdings');
    expect(await connector().holdings(session)).to.deep.equal([]);
  });

  it('maps DH-901, DH-904/429, DH-908/500, silence and a malformed answer, never naming the token', async () => {
    const session = await connector().sessionFromToken!({
      clientId: CLIENT_ID,
      accessToken: fake.issueToken(CLIENT_ID),
    });
    await expectFailuresMapped(fake, () => connector(200).holdings(session), session.accessToken);
    fake.expireTokens();
    expect((await failureOf(connector().holdings(session))).kind).to.equal('expired');
  });

  it('says malformed when the profile has no client ID', async () => {
    fake.fail.push('malformed');
    const err = await failureOf(
      connector().sessionFromToken!({ clientId: CLIENT_ID, accessToken: fake.issueToken(CLIENT_ID) }),
    );
    expect(err.kind).to.equal('malformed');
  });
});
