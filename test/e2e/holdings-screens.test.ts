/**
 * Screenshots of the signed-in screens with realistic data, at 1280 px and 375 px, into
 * test-results/screenshots/: Holdings with an expanded row and unsaved drafts, the Dashboard,
 * and History. Each page is also checked to fit its width without sideways scrolling.
 */
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ruleExecutions } from '../../server/src/db/schema.ts';
import { readShared } from '../helpers/shared-data.ts';
import type { TestApp } from '../helpers/app.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { assertNoHorizontalScroll, DESKTOP, PHONE, screenshot } from '../helpers/browser.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { addHolding } from '../server/rules/support.ts';
import {
  createRuleOncePriced,
  KITE_PRICES,
  pageErrors,
  replayCsv,
  signedInContext,
  uploadHoldings,
  showValues,
} from './support.ts';

const WIDTHS = [
  { name: 'desktop-1280', viewport: { ...DESKTOP, height: 900 } },
  { name: 'phone-375', viewport: PHONE },
] as const;

describe('e2e: screenshots of Holdings, Dashboard and History', function () {
  this.timeout(120_000);
  let app: TestApp;
  let browser: Browser;
  let user: SignedInUser;
  const contexts: BrowserContext[] = [];

  before(async () => {
    ({ app, browser } = await startBrowserSuite({
      replay: { csv: replayCsv(KITE_PRICES), intervalMs: 500 },
    }));
    user = await signIn(app, { name: 'Asha Verma' });
    await uploadHoldings(app, user, {
      csvData: readShared('fixtures/brokers/zerodha_kite_holdings.csv'),
      broker_name: 'Zerodha · AB1234',
    });
    await addHolding(app, user, 'RELIANCE', 25, 1418.6);
    await addHolding(app, user, 'NIFTYBEES', 150, 268.4);
    await addHolding(app, user, 'INFY', 30, 1455);
    await createRuleOncePriced(app, user, {
      symbol: 'INFY',
      exchange: 'NSE',
      rule_name: 'INFY stop',
      trigger_type: 'TRAILING_STOP_LOSS',
      trigger_value: 8,
    });
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
    await app.runtime.deps.db.insert(ruleExecutions).values(
      [
        { symbol: 'SBIN', status: 'SUCCESS', at: 12, message: 'Alert sent to asha@example.com' },
        { symbol: 'IDEA', status: 'FAILED', at: 300, message: 'Email could not be delivered' },
        { symbol: 'M&M', status: 'IN_APP_ONLY', at: 2000, message: 'Monthly alert limit reached' },
        { symbol: 'BAJAJ-AUTO', status: 'PENDING', at: 5000, message: null },
      ].map((row) => ({
        userId: user.id,
        symbol: row.symbol,
        exchange: 'NSE' as const,
        triggerType: 'TRAILING_STOP_LOSS',
        status: row.status,
        triggerPrice: '1000.0000',
        executionPrice: '998.5000',
        message: row.message,
        executedAt: minutesAgo(row.at),
      })),
    );
  });

  after(async () => {
    for (const context of contexts) await context.close();
    await stopBrowserSuite({ app, browser });
  });

  for (const { name, viewport } of WIDTHS) {
    it(`screenshots Holdings with an expanded row and drafts, the Dashboard and History at ${name}`, async () => {
      const context = await signedInContext(browser, app, user, viewport);
      contexts.push(context);
      const page: Page = await context.newPage();
      const errors = pageErrors(page);
      const phone = viewport.width < 700;
      const item = phone ? 'li.holding-card' : 'tr.holding-row';

      await page.goto(`${app.url}/holdings`);
      await page.locator(`${item}[data-symbol="SBIN"] [data-col="ltp"]`).getByText('₹').waitFor();
      await showValues(page);
      await page.locator(`${item}[data-symbol="NIFTYBEES"] .expand-button`).click();
      await page.locator('.holding-details .account-item').nth(1).waitFor();
      // A draft in each of NIFTYBEES's two accounts.
      const addRule = page
        .locator('.holding-details')
        .getByRole('button', { name: /^Add a rule for NIFTYBEES/ });
      for (let drafts = 1; drafts <= 2; drafts++) {
        await addRule.first().click();
        await page
          .locator('form.rule-draft')
          .nth(drafts - 1)
          .waitFor();
      }
      await page.locator('form.rule-draft').nth(1).waitFor();
      await page.waitForTimeout(1200);
      await assertNoHorizontalScroll(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `screens-holdings-${name}`);

      await page.getByRole('link', { name: 'Home' }).first().click();
      await page.getByRole('heading', { name: 'Allocation' }).waitFor();
      await page.locator('.allocation-chart svg').first().waitFor();
      await page.waitForTimeout(800);
      await assertNoHorizontalScroll(page);
      await screenshot(page, `screens-dashboard-${name}`);

      await page.goto(`${app.url}/history`);
      await page.getByText('Showing 4 of 4 executions').waitFor();
      await assertNoHorizontalScroll(page);
      await screenshot(page, `screens-history-${name}`);
      expect(errors).to.deep.equal([]);
    });
  }
});
