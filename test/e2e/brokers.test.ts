/**
 * "Connect Zerodha" in Chromium (docs/holdings.md#connect-a-broker): Settings' Brokers card,
 * Kite's login page (the fake Kite Connect) and back to Holdings with the account synced; Sync
 * now after a sale; a cancelled login; a session Kite ended and the reconnect to the same
 * account; Disconnect; brokers this server has no keys for.
 */
import { BROKER_TEXTS } from '@app/common/api/brokers';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { signIn } from '../helpers/users.ts';
import { accounts, holdingsOf } from '../server/brokers/support.ts';
import {
  accountRow,
  answerKiteLogin,
  brokersBrowserSuite,
  brokersCard,
  brokersScreenshots,
  KITE_CLIENT_ID,
  providerRow,
  syncStrip,
} from './brokers-support.ts';
import { openSignedIn, pageErrors, pathOf, showUnderHeader, tableSymbols } from './support.ts';

const ZERODHA = `Zerodha · ${KITE_CLIENT_ID}`;
const SYNC_LINE = new RegExp(`^${ZERODHA} · synced \\d\\d:\\d\\d IST$`);

describe('e2e: connect a broker (Zerodha through Kite Connect)', function () {
  this.timeout(90_000);
  const { app, browser, kite } = brokersBrowserSuite();

  /** Settings → Connect Zerodha → Log in at Kite → Holdings with the notice. */
  async function connectZerodha(page: Page): Promise<void> {
    await providerRow(page, 'Zerodha').getByRole('button', { name: 'Connect Zerodha' }).click();
    await answerKiteLogin(page, app, kite, 'Log in');
    await page.getByRole('status').filter({ hasText: 'Zerodha connected: holdings synced' }).waitFor();
    expect(pathOf(page)).to.equal('/holdings');
  }

  it("connects through Kite's login page: Holdings shows the sample's holdings and when they synced", async () => {
    const user = await signIn(app, { name: 'Ravi Iyer' });
    const page = await openSignedIn(browser, app, user, '/settings');
    const errors = pageErrors(page);
    await brokersCard(page).getByText('No broker connected yet').waitFor();
    await connectZerodha(page);

    await page.locator('tr.holding-row').nth(1).waitFor();
    expect((await tableSymbols(page)).sort()).to.deep.equal(['AARON', 'SBIN']);
    const strip = syncStrip(page);
    expect(await strip.getByRole('listitem').innerText()).to.match(SYNC_LINE);
    expect(await strip.getByRole('button').count()).to.equal(0);

    await page.goto(`${app.url}/settings`);
    const row = accountRow(page, ZERODHA);
    await row.getByText('Connected', { exact: true }).waitFor();
    expect(await row.innerText()).to.match(/Last synced \d\d:\d\d IST/);
    expect(errors).to.deep.equal([]);
  });

  it('Sync now says what changed at Zerodha: a sale reads "1 sold" and the holding goes', async () => {
    const user = await signIn(app);
    const page = await openSignedIn(browser, app, user, '/settings');
    await connectZerodha(page);
    kite.script.holdings = kite.sampleHoldings().filter((h) => h.tradingsymbol !== 'SBIN');

    await page.goto(`${app.url}/settings`);
    const row = accountRow(page, ZERODHA);
    await row.getByRole('button', { name: `Sync now ${ZERODHA}` }).click();
    await row.getByRole('status').filter({ hasText: 'Zerodha sync: 1 sold' }).waitFor();
    // The bell's toast tells it too: a sync has no instrument, no price and is never emailed.
    const toast = page.locator('.toast').filter({ hasText: 'Zerodha sync: 1 sold' });
    await toast.waitFor();
    expect(await toast.locator('.toast-title').textContent()).to.equal('Broker sync');
    expect(await toast.textContent())
      .not.to.contain('₹')
      .and.not.to.contain('not emailed');
    await toast.getByRole('button', { name: 'Dismiss: Broker sync' }).click();
    await brokersScreenshots(page, 'settings-connected', () => showUnderHeader(brokersCard(page)));

    await page.goto(`${app.url}/holdings`);
    await page.locator('tr.holding-row').first().waitFor();
    expect(await tableSymbols(page)).to.deep.equal(['AARON']);
  });

  it('a login cancelled at Kite comes back to Settings saying nothing was connected', async () => {
    const user = await signIn(app);
    const page = await openSignedIn(browser, app, user, '/settings');
    await providerRow(page, 'Zerodha').getByRole('button', { name: 'Connect Zerodha' }).click();
    await answerKiteLogin(page, app, kite, 'Cancel');
    await brokersCard(page).getByText(BROKER_TEXTS.denied('Zerodha')).waitFor();
    // Shown once: a reload does not say it again.
    await page.waitForURL((url) => !url.searchParams.has('broker_error'));
    expect(pathOf(page)).to.equal('/settings');
    expect(await accounts(app, user)).to.deep.equal([]);
  });

  it('a session Kite ended: Sync now says so, and Reconnect on Holdings leads back to the same account', async () => {
    const user = await signIn(app);
    const page = await openSignedIn(browser, app, user, '/settings');
    await connectZerodha(page);
    const [account] = await accounts(app, user);
    kite.expireTokens();

    await page.goto(`${app.url}/settings`);
    const row = accountRow(page, ZERODHA);
    await row.getByRole('button', { name: `Sync now ${ZERODHA}` }).click();
    await row
      .getByRole('alert')
      .filter({ hasText: BROKER_TEXTS.expired('Zerodha') })
      .waitFor();
    await row.getByText('Session expired', { exact: true }).waitFor();
    expect(await row.getByText(BROKER_TEXTS.expired('Zerodha')).count()).to.equal(1);
    await row.getByRole('button', { name: 'Reconnect Zerodha' }).waitFor();
    expect(await row.getByRole('button', { name: /^Sync now/ }).count()).to.equal(0);

    await page.goto(`${app.url}/holdings`);
    const strip = syncStrip(page);
    await strip.getByText(BROKER_TEXTS.expired('Zerodha')).waitFor();
    // The holdings stay while the session is gone.
    await page.locator('tr.holding-row').nth(1).waitFor();
    await strip.getByRole('button', { name: 'Reconnect Zerodha' }).click();
    await answerKiteLogin(page, app, kite, 'Log in');
    await page.getByRole('status').filter({ hasText: 'Zerodha connected: holdings synced' }).waitFor();
    await strip.getByRole('listitem').filter({ hasText: SYNC_LINE }).waitFor();
    expect(await strip.getByRole('button').count()).to.equal(0);

    const after = await accounts(app, user);
    expect(after.map((a) => [a.broker_account_id, a.account_status])).to.deep.equal([
      [account!.broker_account_id, 'CONNECTED'],
    ]);
  });

  it("Disconnect asks first, saying what goes; then the account's holdings are gone", async () => {
    const user = await signIn(app);
    const page = await openSignedIn(browser, app, user, '/settings');
    await connectZerodha(page);

    await page.goto(`${app.url}/settings`);
    await accountRow(page, ZERODHA)
      .getByRole('button', { name: `Disconnect ${ZERODHA}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Disconnect Zerodha?' });
    expect(await dialog.innerText()).to.contain(
      'Its 2 holdings are removed from Portfolio Guard; your exit rules on them are removed too. Nothing changes at Zerodha.',
    );
    // Asking is not doing: the account is there until the user confirms.
    expect(await accounts(app, user)).to.have.length(1);
    await dialog.getByRole('button', { name: 'Disconnect Zerodha', exact: true }).click();
    await brokersCard(page).getByText(`${ZERODHA} disconnected`).waitFor();
    await brokersCard(page).getByText('No broker connected yet').waitFor();
    expect(await accounts(app, user)).to.deep.equal([]);

    await page.goto(`${app.url}/holdings`);
    await page.getByText('Connect your broker').first().waitFor();
    expect(await tableSymbols(page)).to.deep.equal([]);
    expect(await syncStrip(page).count()).to.equal(0);
  });

  it('brokers without keys on this server read "Not available on this server", with no button', async () => {
    const user = await signIn(app);
    const page = await openSignedIn(browser, app, user, '/settings');
    for (const name of ['Upstox', 'Angel One']) {
      const row = providerRow(page, name);
      await row.getByText('Not available on this server').waitFor();
      expect(await row.getByRole('button').count()).to.equal(0);
    }
    for (const name of ['Zerodha', 'Dhan'])
      await providerRow(page, name)
        .getByRole('button', { name: `Connect ${name}` })
        .waitFor();
  });

  it('History shows a sync that changed something: "Zerodha sync: 1 added", a broker sync, no prices', async () => {
    const user = await signIn(app);
    const page = await openSignedIn(browser, app, user, '/settings');
    await connectZerodha(page);
    const [sbin] = kite.sampleHoldings().filter((h) => h.tradingsymbol === 'SBIN');
    const infy = { ...sbin!, tradingsymbol: 'INFY', exchange: 'NSE', isin: 'INE009A01021', quantity: 5 };
    kite.script.holdings = [...kite.sampleHoldings(), infy];
    await page.goto(`${app.url}/settings`);
    const row = accountRow(page, ZERODHA);
    await row.getByRole('button', { name: `Sync now ${ZERODHA}` }).click();
    await row.getByRole('status').filter({ hasText: 'Zerodha sync: 1 added' }).waitFor();
    const [account] = await accounts(app, user);
    expect(
      (await holdingsOf(app, user, account!.broker_account_id)).map((h) => h.symbol).sort(),
    ).to.deep.equal(['AARON', 'INFY', 'SBIN']);

    await page.goto(`${app.url}/history`);
    const rows = page.locator('tbody tr');
    await rows.nth(1).waitFor();
    expect(await rows.locator('td.history-message').allInnerTexts()).to.deep.equal([
      'Zerodha sync: 1 added',
      'Zerodha sync: 2 added', // the connect's own sync
    ]);
    const first = rows.first();
    expect(await first.locator('th').innerText()).to.equal('Holdings');
    expect(await first.locator('td').first().innerText()).to.equal('Broker sync');
    expect(await first.innerText()).not.to.contain('₹');
  });
});
