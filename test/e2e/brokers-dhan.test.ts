/**
 * Dhan's token form on Settings' Brokers card (docs/holdings.md#connect-a-broker) against the
 * fake DhanHQ: a token Dhan refuses is told beside the field with what was typed kept; a token
 * Dhan issued connects and syncs. And the Dashboard's Add Your Holdings step that leads there.
 */
import { BROKER_TEXTS } from '@app/common/api/brokers';
import { expect } from 'chai';
import { DHAN_DOCS_HOLDING } from '../helpers/fake-brokers/dhan.ts';
import { apiClient } from '../helpers/http.ts';
import { signIn } from '../helpers/users.ts';
import { accounts, connectKite } from '../server/brokers/support.ts';
import {
  accountRow,
  brokersBrowserSuite,
  brokersCard,
  brokersScreenshots,
  providerRow,
  syncStrip,
} from './brokers-support.ts';
import { openSignedIn, pageErrors, pathOf, showUnderHeader } from './support.ts';

const CLIENT_ID = '1100003626';

describe("e2e: connect a broker (Dhan's pasted token)", function () {
  this.timeout(90_000);
  const { app, browser, dhan, kite } = brokersBrowserSuite();

  it('a refused token is told beside the field, what was typed stays; a good one connects and syncs', async () => {
    // In place: the suite's handle reads the fake's fields but cannot set them.
    dhan.holdings.splice(0, dhan.holdings.length, DHAN_DOCS_HOLDING);
    const user = await signIn(app, { name: 'Meera Nair' });
    const page = await openSignedIn(browser, app, user, '/settings');
    const errors = pageErrors(page);
    await providerRow(page, 'Dhan').getByRole('button', { name: 'Connect Dhan' }).click();
    const form = page.getByRole('form', { name: 'Connect Dhan' });
    const clientId = form.getByRole('textbox', { name: 'Dhan client ID' });
    const token = form.getByLabel('Access token');
    await clientId.fill(CLIENT_ID);
    const wrong = 'eyJhbGciOiJIUzUxMiJ9.not-a-token-dhan-issued.0123456789';
    await token.fill(wrong);
    await form.getByRole('button', { name: 'Connect Dhan' }).click();

    const refusal = form.getByRole('alert');
    await refusal.getByText(BROKER_TEXTS.tokenRefused('Dhan')).waitFor();
    expect(await token.getAttribute('aria-invalid')).to.equal('true');
    expect(await token.getAttribute('aria-describedby')).to.equal(await refusal.getAttribute('id'));
    expect(await clientId.inputValue()).to.equal(CLIENT_ID);
    expect(await token.inputValue()).to.equal(wrong);
    expect(await accounts(app, user)).to.deep.equal([]);
    await brokersScreenshots(page, 'dhan-form', () =>
      showUnderHeader(brokersCard(page).getByRole('heading', { name: 'Connect a broker' })),
    );

    await token.fill(dhan.issueToken(CLIENT_ID));
    await form.getByRole('button', { name: 'Connect Dhan' }).click();
    await brokersCard(page).getByText('Dhan connected. Dhan sync: 1 added').waitFor();
    expect(await form.count()).to.equal(0);
    await accountRow(page, `Dhan · ${CLIENT_ID}`).getByText('Connected', { exact: true }).waitFor();
    const [account] = await accounts(app, user);
    expect(account).to.include({ broker_id: 'dhan', account_label: CLIENT_ID, holdings_count: 1 });
    expect(errors).to.deep.equal([]);
  });

  it("the Dashboard's first step offers Connect your broker, which opens Settings at the Brokers card", async () => {
    const user = await signIn(app);
    const page = await openSignedIn(browser, app, user, '/dashboard');
    const connect = page.getByRole('link', { name: 'Connect your broker' });
    await connect.waitFor();
    const step = page.getByRole('heading', { name: 'Add Your Holdings' });
    await brokersScreenshots(page, 'dashboard-step', () =>
      showUnderHeader(page.locator('.card').filter({ has: step })),
    );
    await connect.click();
    await brokersCard(page).getByRole('button', { name: 'Connect Zerodha' }).waitFor();
    expect(pathOf(page)).to.equal('/settings');
    await page.waitForFunction(() => document.activeElement?.id === 'brokers-title');
  });

  it('Settings and Holdings with one account connected and one whose session ended', async () => {
    dhan.holdings.splice(0, dhan.holdings.length, DHAN_DOCS_HOLDING);
    const user = await signIn(app, { name: 'Kavya Rao' });
    const dhanAnswer = await apiClient(app.url).post(
      '/api/brokers/connect',
      { broker: 'dhan', client_id: CLIENT_ID, access_token: dhan.issueToken(CLIENT_ID) },
      user.token,
    );
    expect(dhanAnswer.status, dhanAnswer.body.error).to.equal(200);
    expect(await connectKite(app, kite, user)).to.match(/\/holdings\?connected=kite$/);
    kite.expireTokens();
    const zerodha = (await accounts(app, user)).find((a) => a.broker_id === 'kite')!;
    const sync = await apiClient(app.url).post(
      `/api/brokers/${zerodha.broker_account_id}/sync`,
      {},
      user.token,
    );
    expect([sync.status, sync.body.error]).to.deep.equal([409, BROKER_TEXTS.expired('Zerodha')]);

    const page = await openSignedIn(browser, app, user, '/settings');
    const errors = pageErrors(page);
    await accountRow(page, `Dhan · ${CLIENT_ID}`).getByText('Connected', { exact: true }).waitFor();
    const expired = accountRow(page, 'Zerodha · XX0000');
    await expired.getByText(BROKER_TEXTS.expired('Zerodha')).waitFor();
    await expired.getByRole('button', { name: 'Reconnect Zerodha' }).waitFor();
    await brokersScreenshots(page, 'settings-accounts', () => showUnderHeader(brokersCard(page)));

    await page.goto(`${app.url}/holdings`);
    const strip = syncStrip(page);
    await strip.getByRole('button', { name: 'Reconnect Zerodha' }).waitFor();
    expect(await strip.getByRole('listitem').allInnerTexts()).to.have.length(2);
    await page.locator('tr.holding-row').nth(2).waitFor();
    await brokersScreenshots(page, 'holdings-strip', () => page.evaluate(() => window.scrollTo(0, 0)));
    expect(errors).to.deep.equal([]);
  });
});
