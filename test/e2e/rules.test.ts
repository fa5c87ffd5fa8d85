/**
 * Exit rules and alerts in Chromium against the real app: Price Guard from
 * `?magic-setup=true`, drafts and Save All, a trailing stop whose level follows a rise and then
 * fires on a fall (toast, Triggered in orange, the bell, History), the Create Position Rule
 * wizard, Manage Position Rules, Apply Rule Templates, and price alerts.
 * The test is the market: it publishes a batch every INTERVAL_MS on the app's bus, as the
 * streamer would, and moves the prices only once the screen is where the move is to be seen (a
 * replay file, started with the app, moved on its own clock: on a loaded machine the rise could
 * come before the rules were saved).
 */
import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { assertNoHorizontalScroll, screenshot, screenshotDir } from '../helpers/browser.ts';
import { addHolding, publishPrices, tickBatch } from '../server/rules/support.ts';
import { holdingCard, holdingRow, pageErrors, pathOf, signedInSuite } from './support.ts';

const INTERVAL_MS = 600;
const PREV_CLOSES = { RELIANCE: 1490, INFY: 1495 };

/**
 * The market of this test: RELIANCE and INFY at `prices`, a batch every INTERVAL_MS. RELIANCE
 * opens at 1500, rises to 1560 (the 7% trailing stop follows to 1450.80), then falls to 1440,
 * which crosses it; INFY stays at 1500.
 */
async function startMarket(app: TestApp) {
  const prices = { RELIANCE: 1500, INFY: 1500 };
  const publish = () => app.runtime.bus.publishBatch(tickBatch(prices, PREV_CLOSES));
  // The opening prices are in before the first screen.
  await publishPrices(app, prices, PREV_CLOSES);
  const timer = setInterval(() => void publish(), INTERVAL_MS);
  return {
    prices,
    /** Publishes each RELIANCE price in turn, one batch apart, and stays at the last. */
    async move(...steps: number[]) {
      for (const price of steps) {
        prices.RELIANCE = price;
        await publish();
        await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
      }
    },
    stop: () => clearInterval(timer),
  };
}

/** What the screen shows now (dialogs, dropdowns), not the whole page. */
async function viewShot(page: Page, name: string): Promise<void> {
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`) });
}

/** The whole page from the top (the sticky header then sits where it belongs). */
async function pageShot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await screenshot(page, name);
}

describe('e2e: exit rules and alerts', function () {
  this.timeout(90_000);
  let market: Awaited<ReturnType<typeof startMarket>>;
  // Registered before the suite's own: the market stops before the app closes.
  after(() => market?.stop());
  const suite = signedInSuite({
    name: 'Meera Nair',
    embeddedStreamer: false,
    async seed(app, user) {
      market = await startMarket(app);
      await addHolding(app, user, 'RELIANCE', 10, 1400);
      await addHolding(app, user, 'INFY', 20, 1450);
    },
  });

  it('opens Price Guard from ?magic-setup=true, leaving no trace in the address or history', async () => {
    const { app, page } = suite;
    // The Dashboard's Set Up Alerts step leads here.
    await page.goto(`${app.url}/dashboard`);
    const entries = await page.evaluate(() => history.length);
    await page.getByRole('link', { name: 'Price Guard' }).click();
    const modal = page.getByRole('dialog', { name: 'Price Guard - Smart Protection' });
    await modal.waitFor();
    expect(pathOf(page)).to.equal('/holdings');
    // One entry for the visit to /holdings; removing magic-setup replaced it.
    expect(await page.evaluate(() => history.length)).to.equal(entries + 1);
    await modal.getByText('2 holdings will get a draft rule.').waitFor();
    await modal.getByText(/can customise or remove these rules later/).waitFor();
    expect(await modal.getByRole('button', { name: 'Skip for Now' }).count()).to.equal(1);
    await viewShot(page, 'rules-price-guard-modal');
  });

  it('reviews a 7% trailing rule per holding and saves them with one Save', async () => {
    const { page } = suite;
    await page.getByRole('dialog').getByRole('button', { name: 'Price Guard' }).click();
    const review = page.getByRole('dialog', { name: 'Review Price Guard rules' });
    await review.getByRole('checkbox', { name: 'Protect INFY in Manual' }).waitFor();
    expect(await review.locator('tbody tr').count()).to.equal(2);
    await review.locator('tbody tr[data-symbol="RELIANCE"]').getByText('₹1,395.00').waitFor();
    await review.locator('tbody tr[data-symbol="INFY"]').getByText('₹1,395.00').waitFor();
    expect(await page.locator('form.rule-draft').count()).to.equal(0);
    await viewShot(page, 'rules-price-guard-review');
    await review.getByRole('button', { name: 'Save 2 rules' }).click();
    await review.waitFor({ state: 'detached' });
  });

  it('saves every rule; the rows stay folded and the trailing level follows the rise', async () => {
    const { page } = suite;
    await page.getByText('Saved 2 rules.').waitFor();
    expect(await page.locator('form.rule-draft').count()).to.equal(0);
    // No row was opened to save them; RELIANCE is opened to watch its level.
    const relianceToggle = holdingRow(page, 'RELIANCE').locator('.expand-button');
    await page.waitForFunction(
      () => document.querySelectorAll('tr.holding-row .expand-button[aria-expanded="true"]').length === 0,
    );
    await relianceToggle.click();
    const relianceRules = page.getByRole('group', { name: 'Rules for RELIANCE (NSE)' });
    await relianceRules.locator('.rule-status').getByText('Active', { exact: true }).waitFor();
    await relianceRules.getByText('₹1,395.00').waitFor();
    await page.getByText('2 active').waitFor();

    await page.setViewportSize({ width: 1280, height: 900 });
    await pageShot(page, 'rules-holdings-desktop-1280');

    // 1500 → 1560: the peak and the level (1560 × 0.93) move without a reload, and the last
    // check follows the same quote: 7 % still to go.
    await market.move(1520, 1540, 1560);
    const levels = relianceRules.locator('.rule-levels');
    await levels.getByText('₹1,560.00').waitFor({ timeout: 30_000 });
    await levels.getByText('₹1,450.80').waitFor();
    await relianceRules
      .locator('.rule-check')
      .getByText(/^₹1,560\.00\s· 7\.0% away\s· checked /)
      .waitFor();
  });

  it('fires on the fall: a toast, Triggered in orange, one unread alert, and a History row', async () => {
    const { page } = suite;
    // The tab patches its lists from the one `alert` push: it fetches none of them again.
    const refetched: string[] = [];
    const lists = ['/api/position-rules', '/api/holdings', '/api/alerts'];
    const onRequest = (req: { url(): string }) => {
      const { pathname } = new URL(req.url());
      if (lists.includes(pathname)) refetched.push(pathname);
    };
    page.on('request', onRequest);
    await market.move(1440);
    const toast = page.locator('.toast', { hasText: 'RELIANCE · Trailing stop hit' });
    await toast.waitFor({ timeout: 30_000 });
    expect(await toast.innerText()).to.match(/LTP ₹1,440\.00/);
    expect(await page.locator('.toast-region').getAttribute('aria-live')).to.equal('polite');

    const relianceRules = page.getByRole('group', { name: 'Rules for RELIANCE (NSE)' });
    const badge = relianceRules.locator('.rule-status', { hasText: 'Triggered' });
    await badge.waitFor();
    const colour = await badge.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(colour).to.equal('rgb(180, 70, 10)');
    await page.getByRole('button', { name: 'Alerts, 1 unread' }).waitFor();
    // The RELIANCE row offers '+ Add' again: no active rule guards it.
    await holdingRow(page, 'RELIANCE')
      .getByRole('button', { name: /Add a rule/ })
      .waitFor();
    page.off('request', onRequest);
    expect(refetched).to.deep.equal([]);

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('button', { name: 'Alerts, 1 unread' }).click();
    const panel = page.getByRole('region', { name: 'Alerts', exact: true });
    await panel.getByText('RELIANCE · Trailing stop hit').waitFor();
    await panel.getByText(/RELIANCE (fell to ₹1,440\.00|gapped through your trailing stop)/).waitFor();
    await panel.getByText(/IST$/).first().waitFor();
    await viewShot(page, 'rules-bell-dropdown');
    await panel.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByRole('button', { name: 'Alerts, none unread' }).waitFor();
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await pageShot(page, 'rules-holdings-triggered-1280');
    // The toast leaves by itself after about 8 s.
    await toast.waitFor({ state: 'detached', timeout: 12_000 });

    await page.getByRole('link', { name: 'History', exact: true }).first().click();
    const row = page.locator('.history-table tbody tr', { hasText: 'RELIANCE' });
    await row.waitFor();
    expect(await row.innerText()).to.contain('Trailing stop loss');
  });

  it('creates a rule with the 4-step wizard', async () => {
    const { app, page } = suite;
    await page.goto(`${app.url}/holdings`);
    await page.getByRole('button', { name: 'Create Rule' }).click();
    const wizard = page.getByRole('dialog', { name: 'Create Position Rule' });
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText('Please enter a rule name').waitFor();
    await wizard.getByLabel('Rule name').fill('INFY profit target');
    await wizard.getByLabel('Holding').selectOption('NSE:INFY');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText('Which of your INFY holdings does it guard?').waitFor();
    expect(await wizard.getByRole('radio', { name: /All holdings/ }).isChecked()).to.equal(true);
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('radio', { name: /Take profit/ }).check();
    const value = wizard.getByLabel('Trigger value');
    expect(await value.inputValue()).to.equal('10');
    await wizard.getByText('Alert at ₹1,650.00').waitFor();
    await viewShot(page, 'rules-wizard-trigger');
    await wizard.getByRole('button', { name: 'Previous' }).click();
    await wizard.getByText('Which of your INFY holdings does it guard?').waitFor();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    expect(await wizard.getByRole('radio', { name: /Sell/ }).isDisabled()).to.equal(true);
    await wizard.getByText('Automatic sell orders are coming soon').waitFor();
    await wizard.getByRole('button', { name: 'Create Rule' }).click();
    await wizard.waitFor({ state: 'detached' });
    await page.getByText('Rule created: INFY, INFY profit target.').waitFor();
  });

  it('disables and re-enables rules in Manage Position Rules, and lists the execution', async () => {
    const { page } = suite;
    await page.getByRole('button', { name: 'Manage Rules' }).click();
    const dialog = page.getByRole('dialog', { name: 'Manage Position Rules' });
    const row = dialog.locator('.manage-row', { hasText: 'INFY profit target' });
    await row.getByText('Active', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Disable INFY: INFY profit target' }).click();
    await row.getByText('Inactive', { exact: true }).waitFor();

    await row.getByRole('checkbox').check();
    await dialog.getByText('1 selected').waitFor();
    await dialog
      .getByRole('group', { name: 'Selected rules' })
      .getByRole('button', { name: 'Enable' })
      .click();
    await dialog.getByText('1 rule enabled.').waitFor();
    await row.getByText('Active', { exact: true }).waitFor();

    await row.getByRole('button', { name: 'Edit INFY: INFY profit target' }).click();
    await row.getByLabel('Rule name').fill('INFY 12% target');
    await row.getByLabel('Trigger value').fill('12');
    await row.getByRole('button', { name: 'Save changes' }).click();
    const edited = dialog.locator('.manage-row', { hasText: 'INFY 12% target' });
    await edited.getByText(/Take profit 12% · trigger ₹1,680\.00/).waitFor();

    await dialog.getByRole('tab', { name: 'Execution History' }).click();
    await dialog.getByRole('tabpanel').getByText('RELIANCE', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('applies the 5% Fixed Stop Loss template from the buy price', async () => {
    const { page } = suite;
    await page.getByRole('button', { name: 'Apply Templates' }).click();
    const dialog = page.getByRole('dialog', { name: 'Apply Rule Templates' });
    await dialog.getByRole('button', { name: 'Apply Template' }).click();
    await dialog.getByText('Please choose at least one holding').waitFor();
    await dialog.getByRole('checkbox', { name: 'INFY NSE' }).check();
    await dialog.getByRole('button', { name: 'Apply Template' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Applied 5% Fixed Stop Loss to 1 holding.').waitFor();
    await holdingRow(page, 'INFY').locator('.expand-button').click();
    // 1450 (the buy price) × 0.95.
    await page.getByRole('group', { name: 'Rules for INFY (NSE)' }).getByText('₹1,377.50').waitFor();
  });

  it('deletes a rule after a confirmation', async () => {
    const { page } = suite;
    const infy = page.getByRole('group', { name: 'Rules for INFY (NSE)' });
    await infy.getByRole('button', { name: 'Delete Fixed stop loss 5% on INFY' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this rule?' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm.waitFor({ state: 'detached' });
    await infy.getByText('Fixed stop loss 5%').waitFor({ state: 'detached' });
  });

  it('arms a price alert from the bell and deletes it', async () => {
    const { page } = suite;
    await page.getByRole('button', { name: /^Alerts,/ }).click();
    const panel = page.getByRole('region', { name: 'Alerts', exact: true });
    await panel.getByRole('button', { name: '+ New price alert' }).click();
    await panel.getByRole('combobox', { name: /Stock/ }).fill('INFY');
    await panel.getByRole('option', { name: /^INFY/ }).first().click();
    await panel.getByLabel('Price in rupees').fill('1600');
    await panel.getByRole('button', { name: 'Set alert' }).click();
    await panel.getByText('INFY rises to ₹1,600.00').waitFor();
    await panel.getByRole('button', { name: 'Delete price alert: INFY rises to ₹1,600.00' }).click();
    await panel.getByText('INFY rises to ₹1,600.00').waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
  });

  it("opens Price Guard from the page's button; Skip for Now closes it", async () => {
    const { page } = suite;
    await page
      .getByRole('group', { name: 'Holdings actions' })
      .getByRole('button', { name: 'Price Guard' })
      .click();
    const modal = page.getByRole('dialog', { name: 'Price Guard - Smart Protection' });
    // RELIANCE's stop has fired: it is unguarded again.
    await modal.getByText('1 holding will get a draft rule.').waitFor();
    await modal.getByRole('button', { name: 'Skip for Now' }).click();
    await modal.waitFor({ state: 'detached' });
  });

  it('counts the active rules on the Dashboard, with the rules step done', async () => {
    const { page } = suite;
    await page.getByRole('link', { name: 'Home' }).first().click();
    const card = page.locator('.summary-card', { hasText: 'Active Rules' });
    await card.waitFor();
    // INFY: the Price Guard trailing stop and the 12% target; RELIANCE's stop has fired.
    expect(await card.locator('.summary-card-value').innerText()).to.equal('2');
    expect(await page.getByRole('heading', { name: 'Getting Started' }).count()).to.equal(0);
  });

  it('lays out the rules on a phone without sideways scrolling', async () => {
    const { app, context, errors } = suite;
    const phone = await context.newPage();
    const phoneErrors = pageErrors(phone);
    await phone.setViewportSize({ width: 375, height: 800 });
    await phone.goto(`${app.url}/holdings`);
    await phone.locator('li.holding-card').first().waitFor();
    for (const symbol of ['INFY', 'RELIANCE']) {
      await holdingCard(phone, symbol).locator('.expand-button').click();
    }
    await phone.locator('.rule-item').first().waitFor();
    await holdingCard(phone, 'INFY')
      .getByRole('button', { name: /Add Rule for INFY/ })
      .click();
    await phone.locator('form.rule-draft').waitFor();
    await phone.waitForTimeout(500);
    await assertNoHorizontalScroll(phone);
    await pageShot(phone, 'rules-holdings-phone-375');
    await phone.getByRole('button', { name: /^Alerts,/ }).click();
    await phone.getByRole('region', { name: 'Alerts', exact: true }).waitFor();
    await assertNoHorizontalScroll(phone);
    await viewShot(phone, 'rules-bell-phone-375');
    await phone.setViewportSize({ width: 360, height: 800 });
    await phone.keyboard.press('Escape');
    await phone.getByRole('button', { name: 'Create Rule' }).click();
    await phone.getByRole('dialog', { name: 'Create Position Rule' }).waitFor();
    await phone.waitForTimeout(400);
    await assertNoHorizontalScroll(phone);
    await viewShot(phone, 'rules-wizard-phone-360');
    expect(phoneErrors).to.deep.equal([]);
    await phone.close();
    expect(errors).to.deep.equal([]);
  });
});
