/**
 * One stock, one alert, in Chromium (issue #28): three accounts' stops on HDFCBANK crossed by one
 * move make one toast naming every account, in a stop loss's red; a profit target's toast is
 * green; the toasts keep clear of the Dashboard's quota card, which counts the notice without a
 * reload.
 */
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { screenshot } from '../helpers/browser.ts';
import { apiClient } from '../helpers/http.ts';
import { addHolding, createRule, publishPrices } from '../server/rules/support.ts';
import { signedInContext, signedInSuite, uploadHoldings } from './support.ts';

const KITE_HEADER =
  '"Instrument","Qty.","Avg. cost","LTP","Invested","Cur. val","P&L","Net chg.","Day chg.",""';
const kite = (row: string) => `${KITE_HEADER}\n${row},0,0,0,0,0,0,""`;
const SENTENCE =
  'HDFCBANK fell to ₹1,612.40: your stops in Zerodha (40 sh), ICICI Direct (25 sh) and Manual (10 sh) · ₹1,20,930';

/** Whether two boxes on the screen overlap. */
async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) return false;
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

const quotaCard = (page: Page) => page.locator('.summary-card', { hasText: 'Email alerts this month' });

describe('notices in the browser: one toast per stock, red for a stop, the quota card live', function () {
  this.timeout(120_000);
  const suite = signedInSuite({
    name: 'Arjun Mehta',
    embeddedStreamer: false,
    async seed(app, user) {
      await publishPrices(app, { HDFCBANK: 1700, INFY: 1500 });
      await uploadHoldings(app, user, { csvData: kite('HDFCBANK,40,1500') });
      await uploadHoldings(app, user, {
        csvData: kite('HDFCBANK,25,1550'),
        account: { new_name: 'ICICI Direct' },
      });
      await addHolding(app, user, 'HDFCBANK', 10, 1600);
      await addHolding(app, user, 'INFY', 20, 1400);
      const held = (
        await apiClient(app.url).get<Array<{ symbol: string; broker_account_id: string }>>(
          '/api/holdings',
          user.token,
        )
      ).body.data!;
      for (const h of held.filter((x) => x.symbol === 'HDFCBANK'))
        await createRule(app, user, {
          symbol: 'HDFCBANK',
          trigger_type: 'FIXED_STOP_LOSS',
          trigger_value: 5,
          rule_scope: 'specific_account',
          target_account_id: h.broker_account_id,
        });
      await createRule(app, user, { symbol: 'INFY', trigger_type: 'TAKE_PROFIT', trigger_value: 5 });
    },
    path: '/dashboard',
  });

  it('shows one red toast naming each account, counts one alert live, and keeps clear of the quota card', async () => {
    const { app, page } = suite;
    await quotaCard(page).getByText('0 of 5').waitFor();
    await publishPrices(app, { HDFCBANK: 1612.4 });
    const toast = page.locator('.toast', { hasText: SENTENCE });
    await toast.waitFor();
    await page.waitForTimeout(500);
    expect(await page.locator('.toast').count(), 'one toast for the three rules').to.equal(1);
    expect(await toast.getAttribute('data-tone')).to.equal('stop');
    await quotaCard(page).getByText('1 of 5').waitFor({ timeout: 10_000 });
    // The bell, too, counts the notice once.
    await page.getByRole('button', { name: 'Alerts, 1 unread' }).waitFor();

    await publishPrices(app, { INFY: 1580 });
    const target = page.locator('.toast', { hasText: 'INFY · Profit target reached' });
    await target.waitFor();
    expect(await target.getAttribute('data-tone')).to.equal('target');
    await screenshot(page, 'notices-toasts-1280');
    expect(await overlap(page.locator('.toast-region'), quotaCard(page))).to.equal(false);
    await quotaCard(page).getByText('2 of 5').waitFor({ timeout: 10_000 });
  });

  it('keeps the toasts clear of the quota card on a phone', async () => {
    const { app, browser, user } = suite;
    const context = await signedInContext(browser, app, user, { width: 375, height: 740 });
    const page = await context.newPage();
    await page.goto(`${app.url}/dashboard`);
    await quotaCard(page).getByText('2 of 5').waitFor();
    const alert = await apiClient(app.url).post(
      '/api/alerts',
      { symbol: 'INFY', exchange: 'NSE', direction: 'below', price: 1450 },
      user.token,
    );
    expect(alert.status, alert.body.error).to.equal(201);
    await publishPrices(app, { INFY: 1440 });
    const toast = page.locator('.toast', { hasText: 'INFY · Price alert' });
    await toast.waitFor();
    expect(await toast.getAttribute('data-tone')).to.equal('notice');
    await quotaCard(page).scrollIntoViewIfNeeded();
    expect(await overlap(page.locator('.toast-region'), quotaCard(page))).to.equal(false);
    await screenshot(page, 'notices-dashboard-375');
  });
});
