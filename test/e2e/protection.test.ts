/**
 * Issue 20 in Chromium against the real app: "Protect new holdings with Price Guard" is turned
 * on in Settings and kept; holdings added afterwards get the Price Guard rule; the dashboard
 * says how many holdings are protected and links to the unprotected ones (Holdings
 * ?filter=unprotected); Manage Rules shows each rule's last check and sorts nearest to firing.
 * Screenshots at 1280 and 375 px (into docs/ with UPDATE_DOCS_SCREENSHOTS=1).
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { assertNoHorizontalScroll, DESKTOP, PHONE, screenshot, type Viewport } from '../helpers/browser.ts';
import { apiClient } from '../helpers/http.ts';
import { addHolding, createRule, publishPrices } from '../server/rules/support.ts';
import {
  docsScreenshot,
  holdingRow,
  openSignedIn,
  pageErrors,
  pathOf,
  showUnderHeader,
  signedInSuite,
  tableSymbols,
} from './support.ts';

describe('e2e: protection that follows new holdings, coverage, and the last check', function () {
  this.timeout(120_000);
  const suite = signedInSuite({
    name: 'Meera Iyer',
    // Prices come only from the test (no simulated feed), so the screens are the same every run.
    embeddedStreamer: false,
    async seed(app, user) {
      await publishPrices(app, { ITC: 412.35, TCS: 3250, INFY: 1580, HDFCBANK: 1010 });
      // Held before the setting: ITC bare, TCS with a rule of its own.
      await addHolding(app, user, 'ITC', 100, 380);
      await addHolding(app, user, 'TCS', 5, 3100);
      await createRule(app, user, { symbol: 'TCS', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 10 });
    },
    path: '/settings',
  });

  /** A viewport-sized PNG of `element` scrolled under the header, in docs/ or test-results/. */
  async function shot(
    viewport: Viewport,
    pathName: string,
    selector: string,
    file: string,
    prepare?: (p: Page) => Promise<void>,
  ) {
    const p = await openSignedIn(suite.browser, suite.app, suite.user, pathName, viewport);
    const shotErrors = pageErrors(p);
    await p.locator(selector).first().waitFor();
    if (prepare) await prepare(p);
    await assertNoHorizontalScroll(p);
    await showUnderHeader(p.locator(selector).first());
    await docsScreenshot(p, file);
    expect(shotErrors).to.deep.equal([]);
    await p.context().close();
  }

  it('turns "Protect new holdings with Price Guard" on and the evening digest off in Settings, and keeps them', async () => {
    const { app, user, page } = suite;
    const toggle = page.getByRole('switch', { name: 'Protect new holdings with Price Guard' });
    await page
      .getByText(
        'Holdings you add or upload later, without a rule, get a 7% trailing stop-loss alert at once.',
      )
      .waitFor();
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('input[role="switch"]')?.disabled === false,
    );
    expect(await toggle.isChecked()).to.equal(false);
    await toggle.click();
    await page.waitForFunction(() => {
      const box = document.querySelector<HTMLInputElement>('input[role="switch"]');
      return box?.checked && !box.disabled;
    });
    const stored = await apiClient(app.url).get<{ protect_new_holdings: boolean }>(
      '/api/settings',
      user.token,
    );
    expect(stored.body.data).to.deep.equal({ protect_new_holdings: true, evening_digest: true });
    await page.reload();
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('input[role="switch"]')?.disabled === false,
    );
    expect(await toggle.isChecked()).to.equal(true);

    // The evening digest, on by default, is turned off beside it and stays off.
    const digest = page.getByRole('switch', { name: 'Email me an evening digest' });
    expect(await digest.isChecked()).to.equal(true);
    await digest.click();
    await page.waitForFunction(() => {
      const boxes = [...document.querySelectorAll<HTMLInputElement>('input[role="switch"]')];
      return boxes.length === 2 && !boxes[1]!.checked && !boxes[1]!.disabled;
    });
    const after = await apiClient(app.url).get<{ evening_digest: boolean }>('/api/settings', user.token);
    expect(after.body.data).to.deep.equal({ protect_new_holdings: true, evening_digest: false });
    await page.reload();
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('input[role="switch"]')?.disabled === false,
    );
    expect(await digest.isChecked()).to.equal(false);
    expect(await toggle.isChecked()).to.equal(true);
    for (const [viewport, name] of [
      [DESKTOP, '1280'],
      [PHONE, '375'],
    ] as const) {
      await shot(viewport, '/settings', '.settings-side', `settings-protection-${name}.png`, async (p) => {
        await p.waitForFunction(
          () => document.querySelector<HTMLInputElement>('input[role="switch"]')?.checked === true,
        );
      });
    }
  });

  it('protects holdings added afterwards; the dashboard counts them and links to the unprotected one', async () => {
    const { app, user, page } = suite;
    await addHolding(app, user, 'INFY', 20, 1450);
    await addHolding(app, user, 'HDFCBANK', 30, 950);
    await page.goto(`${app.url}/dashboard`);
    const line = page.locator('.coverage-line');
    await line.getByText('3 of 4 holdings protected', { exact: true }).waitFor();
    const link = line.getByRole('link', { name: 'Show the unprotected holding' });
    expect(await link.getAttribute('href')).to.equal('/holdings?filter=unprotected');
    for (const [viewport, name] of [
      [DESKTOP, '1280'],
      [PHONE, '375'],
    ] as const) {
      await shot(viewport, '/dashboard', '.coverage-line', `dashboard-coverage-${name}.png`);
    }

    await link.click();
    await page.waitForURL((url) => url.pathname === '/holdings');
    expect(pathOf(page)).to.equal('/holdings?filter=unprotected');
    await page.locator('tr.holding-row').first().waitFor();
    expect(await tableSymbols(page)).to.deep.equal(['ITC']);
    const show = page.getByRole('combobox', { name: 'Show' });
    expect(await show.inputValue()).to.equal('unprotected');
    await page.getByText('Showing 1 of 4 holdings').waitFor();

    await show.selectOption('all');
    await page.getByText('4 holdings', { exact: true }).waitFor();
    expect(pathOf(page)).to.equal('/holdings');
    expect((await tableSymbols(page)).sort()).to.deep.equal(['HDFCBANK', 'INFY', 'ITC', 'TCS']);
  });

  it('shows each rule’s last check in Manage Rules, live, and sorts nearest to firing', async () => {
    const { app, page, errors } = suite;
    await page.getByRole('button', { name: 'Manage Rules' }).click();
    const dialog = page.getByRole('dialog', { name: 'Manage Position Rules' });
    const row = (symbol: string) => dialog.locator('li.manage-row', { hasText: symbol });
    // INFY's Price Guard rule: ₹1,580 peak, level ₹1,469.40, 7 % away.
    await row('INFY')
      .getByText(/^₹1,580\.00\s· 7\.0% away\s· checked \d\d:\d\d IST$/)
      .waitFor();
    await row('TCS')
      .getByText(/^₹3,250\.00\s· 10\.0% away\s· checked \d\d:\d\d IST$/)
      .waitFor();

    await publishPrices(app, { INFY: 1500 });
    // (1,500 − 1,469.40) / 1,500 = 2.04 %.
    await row('INFY')
      .getByText(/^₹1,500\.00\s· 2\.0% away\s· checked \d\d:\d\d IST$/)
      .waitFor();
    await dialog.getByRole('combobox', { name: 'Sort' }).selectOption('distance');
    const order = await dialog
      .locator('li.manage-row strong')
      .evaluateAll((cells) => cells.map((c) => c.textContent));
    expect(order).to.deep.equal(['INFY', 'HDFCBANK', 'TCS']);

    // The holding's own rule rows say the same.
    await dialog.getByRole('button', { name: /close/i }).click();
    await holdingRow(page, 'INFY').locator('.expand-button').click();
    const rules = page.getByRole('group', { name: 'Rules for INFY (NSE)' });
    await rules.getByText(/^₹1,500\.00\s· 2\.0% away\s· checked \d\d:\d\d IST$/).waitFor();
    await screenshot(page, 'rule-row-check-1280');

    for (const [viewport, name] of [
      [DESKTOP, '1280'],
      [PHONE, '375'],
    ] as const) {
      await shot(viewport, '/holdings', '.holdings-card', `manage-rules-distance-${name}.png`, async (p) => {
        await p.getByRole('button', { name: 'Manage Rules' }).click();
        const d = p.getByRole('dialog', { name: 'Manage Position Rules' });
        await d.getByRole('combobox', { name: 'Sort' }).selectOption('distance');
        await d
          .locator('li.manage-row', { hasText: 'INFY' })
          .getByText(/2\.0% away/)
          .waitFor();
      });
    }
    expect(errors).to.deep.equal([]);
  });
});
