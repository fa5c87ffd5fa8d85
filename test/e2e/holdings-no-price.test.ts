/**
 * "Never an invented price" in Chromium: a holding the feed has no quote for shows "No price"
 * and no P&L (table row at 1280 px, card at 375 px), and the summary leaves it out of Current
 * Value and P&L and says so under the totals. Prices come from a replay file that has SBIN only.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { PHONE, screenshot } from '../helpers/browser.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { addHolding } from '../server/rules/support.ts';
import { holdingCard, holdingRow, pageErrors, replayCsv, signedInContext, showValues } from './support.ts';

const REPLAY = replayCsv([['SBIN', 1021.1, 1025.3]]);

describe('e2e: holdings without a price', function () {
  this.timeout(90_000);
  let app: TestApp;
  let browser: Browser;
  let user: SignedInUser;

  before(async () => {
    // Its own database: an earlier file of this worker may have stored a quote of IDEA.
    ({ app, browser } = await startBrowserSuite({
      replay: { csv: REPLAY, intervalMs: 400 },
      ownDatabase: true,
    }));
    user = await signIn(app, { name: 'Ravi Iyer' });
    await addHolding(app, user, 'SBIN', 10, 900);
    await addHolding(app, user, 'IDEA', 1000, 7.41);
  });

  after(async () => {
    await stopBrowserSuite({ app, browser });
  });

  it('shows "No price" and no P&L, and leaves the holding out of the totals, saying so', async () => {
    const context = await signedInContext(browser, app, user);
    const page = await context.newPage();
    const errors = pageErrors(page);
    await page.goto(`${app.url}/holdings`);
    const sbin = holdingRow(page, 'SBIN');
    await sbin.locator('[data-col="ltp"]').getByText('₹1,021.10').waitFor();
    const idea = holdingRow(page, 'IDEA');
    expect(await idea.locator('[data-col="ltp"]').innerText()).to.equal('No price');
    expect(await idea.locator('[data-col="pnl"]').innerText()).to.equal('—');
    expect(await idea.locator('[data-col="gain"]').innerText()).to.equal('—');

    await showValues(page);
    // Investment counts both (9,000 + 7,410); value and P&L only SBIN (10 × 1,021.10 − 9,000).
    await page.locator('[data-stat="Current Value"]').getByText('₹10,211.00').waitFor();
    expect(await page.locator('[data-stat="Total Investment"]').innerText()).to.equal('₹16,410.00');
    expect(await page.locator('[data-stat="P&L"]').innerText()).to.equal('+₹1,211.00\n+13.46%');
    expect(await page.getByTestId('unpriced-note').innerText()).to.equal(
      '1 holding without a price is not counted in Current Value and P&L.',
    );
    await screenshot(page, 'holdings-no-price-1280');
    expect(errors).to.deep.equal([]);
    await context.close();
  });

  it('says "No price" on the phone card too', async () => {
    const context = await signedInContext(browser, app, user, PHONE);
    const page = await context.newPage();
    await page.goto(`${app.url}/holdings`);
    const card = holdingCard(page, 'IDEA');
    await holdingCard(page, 'SBIN').locator('[data-col="ltp"]').getByText('₹1,021.10').waitFor();
    expect(await card.locator('[data-col="ltp"]').innerText()).to.equal('No price');
    expect(await card.locator('[data-col="pnl"]').innerText()).to.equal('—');
    await screenshot(page, 'holdings-no-price-375');
    await context.close();
  });
});
