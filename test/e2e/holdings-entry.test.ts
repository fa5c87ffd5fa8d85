/**
 * The Holdings page's smaller paths in Chromium against the real app: the phone card's figures, the
 * symbol search box's texts, a manual Save All that half succeeds, inline edit cancelling, and the
 * delete failure texts of docs/holdings.md#holdings-and-dashboard-screens (the failing calls made
 * to fail with page.route). Prices come from a replay file, so every figure is known.
 */
import { expect } from 'chai';
import type { Route } from 'playwright-core';
import { PHONE } from '../helpers/browser.ts';
import { apiClient } from '../helpers/http.ts';
import { addHolding } from '../server/rules/support.ts';
import {
  deleteAllHoldings,
  deleteHolding,
  editInline,
  holdingCard,
  holdingRow,
  openManualEntry,
  replayCsv,
  signedInContext,
  signedInSuite,
  uploadHoldings,
  showValues,
} from './support.ts';

const REPLAY = replayCsv([
  ['INFY', 1500, 1480],
  ['RELIANCE', 1500, 1490],
  ['TCS', 3400, 3380],
]);

interface HoldingRow {
  id: string;
  symbol: string;
  broker_name: string;
  account_label: string | null;
}

/** Answers the matching calls with a 500 and the server-style error text. */
function failWith(error: string) {
  return (route: Route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ success: false, error }),
    });
}

describe('e2e: Holdings page, manual entry, search, edits and delete failures', function () {
  this.timeout(90_000);
  const suite = signedInSuite({
    name: 'Nikhil Shah',
    replay: { csv: REPLAY, intervalMs: 500 },
    async seed(app, user) {
      await addHolding(app, user, 'INFY', 10, 1400);
      await addHolding(app, user, 'RELIANCE', 20, 1450);
      await uploadHoldings(app, user, {
        csvData: 'Symbol,Quantity,Buy Price\nRELIANCE,5,1480',
        broker_name: 'Zerodha · AB1',
      });
    },
  });

  const holdingsOf = async () =>
    (await apiClient(suite.app.url).get<HoldingRow[]>('/api/holdings', suite.user.token)).body.data!;

  it('shows Qty, Buy Price, Gain %, Invested, LTP and Net P&L on a 375 px phone card', async () => {
    const { app, browser, user } = suite;
    const phoneContext = await signedInContext(browser, app, user, PHONE);
    const phone = await phoneContext.newPage();
    await phone.goto(`${app.url}/holdings`);
    const card = holdingCard(phone, 'INFY');
    await card.locator('[data-col="ltp"]').getByText('₹1,500.00').waitFor();
    expect(await phone.locator('table.holdings-table').count()).to.equal(0);
    await showValues(phone);
    const figures = await card
      .locator('.figure')
      .evaluateAll((items) =>
        items.map((item) => [
          item.querySelector('dt')!.textContent,
          (item.querySelector('dd') as HTMLElement).innerText.trim(),
        ]),
      );
    // 10 INFY bought at 1,400, now 1,500.
    expect(figures.slice(0, 6)).to.deep.equal([
      ['Qty', '10'],
      ['Buy Price', '₹1,400.00'],
      ['Gain %', '+7.14%'],
      ['Invested', '₹14,000.00'],
      ['LTP', '₹1,500.00'],
      ['Net P&L', '+₹1,000.00'],
    ]);
    await phoneContext.close();
  });

  it('searches symbols from 2 characters, says when nothing matches, and hides a failed search', async () => {
    const { app, page } = suite;
    const searches: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname === '/api/symbols/search') searches.push(url.searchParams.get('query') ?? '');
    });
    await page.goto(`${app.url}/holdings`);
    await holdingRow(page, 'INFY').waitFor();
    await openManualEntry(page);
    const symbol = page.getByRole('combobox', { name: 'Symbol (row 1)', exact: true });

    await symbol.fill('R');
    // Past the 300 ms debounce: one character asks nothing and lists nothing.
    await page.waitForTimeout(700);
    expect(searches).to.deep.equal([]);
    expect(await symbol.getAttribute('aria-expanded')).to.equal('false');
    expect(await page.getByRole('listbox').first().isVisible()).to.equal(false);

    await symbol.fill('ZZQX');
    await page.getByText('No symbols found for "ZZQX"').waitFor();
    expect(await symbol.getAttribute('aria-expanded')).to.equal('true');
    expect(searches).to.deep.equal(['ZZQX']);

    let failed = 0;
    await page.route('**/api/symbols/search?**', (route) => {
      failed += 1;
      return route.abort('connectionrefused');
    });
    await symbol.fill('INF');
    const inputId = (await symbol.getAttribute('id'))!;
    await page.waitForFunction(
      (id) => document.getElementById(id)?.getAttribute('aria-expanded') === 'false',
      inputId,
    );
    expect(failed).to.equal(1);
    expect(await symbol.getAttribute('aria-expanded')).to.equal('false');
    expect(await page.getByText(/No symbols found/).count()).to.equal(0);
    expect(await page.locator('form.manual-entry').getByRole('alert').count()).to.equal(0);
    expect(await page.locator('.symbol-search-option').count()).to.equal(0);
    await page.unroute('**/api/symbols/search?**');
    await page.getByRole('button', { name: 'Cancel' }).click();
  });

  it('adds the good row of a Save All and lists the duplicate under Duplicate Holdings:', async () => {
    const { page } = suite;
    const form = await openManualEntry(page);
    await form.getByRole('combobox', { name: 'Symbol (row 1)', exact: true }).fill('TCS');
    await form.getByLabel('Quantity (row 1)', { exact: true }).fill('5');
    await form.getByLabel('Buy Price (₹) (row 1)', { exact: true }).fill('3300');
    await form.getByRole('button', { name: '+ Add Row' }).click();
    await form.getByRole('combobox', { name: 'Symbol (row 2)', exact: true }).fill('INFY');
    await form.getByLabel('Quantity (row 2)', { exact: true }).fill('3');
    await form.getByLabel('Buy Price (₹) (row 2)', { exact: true }).fill('1450');
    await form.getByRole('button', { name: 'Save All' }).click();

    const problem = form.getByRole('alert');
    await problem.getByText('Failed to add holdings').waitFor();
    await problem.getByText('Duplicate Holdings:').waitFor();
    await problem
      .getByText('INFY (NSE) already exists. You can edit the quantity or buy price if needed.')
      .waitFor();
    expect(await problem.getByText('Other Errors:').count()).to.equal(0);
    // The partial success called back (the page's notice) and refreshed the table.
    await page.locator('.notice-success').getByText('1 holding was added.').waitFor();
    const tcs = holdingRow(page, 'TCS');
    await tcs.locator('[data-col="qty"]').getByText('5', { exact: true }).waitFor();
    expect(await holdingRow(page, 'INFY').locator('[data-col="qty"]').innerText()).to.equal('10');
    // Only the refused row stays in the form.
    expect(await form.getByRole('combobox', { name: 'Symbol (row 1)', exact: true }).inputValue()).to.equal(
      'INFY',
    );
    expect(await form.getByRole('combobox', { name: 'Symbol (row 2)', exact: true }).count()).to.equal(0);
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('cancels an inline edit on Escape and on an empty value, without a request', async () => {
    const { page } = suite;
    const puts: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'PUT') puts.push(req.url());
    });
    const row = holdingRow(page, 'INFY');

    let input = await editInline(row, 'INFY', 'quantity');
    await input.fill('99');
    await input.press('Escape');
    await input.waitFor({ state: 'detached' });
    expect(await row.locator('[data-col="qty"]').innerText()).to.equal('10');

    input = await editInline(row, 'INFY', 'quantity');
    await input.fill('');
    await input.press('Enter');
    await input.waitFor({ state: 'detached' });
    expect(await row.locator('[data-col="qty"]').innerText()).to.equal('10');

    const price = await editInline(row, 'INFY', 'buy price');
    await price.fill('1');
    await price.press('Escape');
    await price.waitFor({ state: 'detached' });
    expect(await row.locator('[data-col="buy"]').innerText()).to.equal('₹1,400.00');

    await page.waitForTimeout(300);
    expect(puts).to.deep.equal([]);
    const infy = (await holdingsOf()).find((h) => h.symbol === 'INFY') as unknown as { quantity: string };
    expect(Number(infy.quantity)).to.equal(10);
  });

  it("says 'Failed to delete holding' when a holding's delete fails", async () => {
    const { page } = suite;
    const tcs = (await holdingsOf()).find((h) => h.symbol === 'TCS');
    expect(tcs, 'TCS was added by the previous test').to.not.equal(undefined);
    const target = `/api/holdings/${tcs!.id}`;
    const failing = (url: URL) => url.pathname === target;
    await page.route(failing, failWith('Could not delete this holding right now'));
    await deleteHolding(page, 'TCS');
    const alert = page.getByRole('alert').filter({ hasText: 'Failed to delete holding' });
    await alert.waitFor();
    expect(await alert.locator('li').count()).to.equal(0);
    await page.unroute(failing);
    await alert.getByRole('button', { name: /Dismiss/ }).click();
    expect((await holdingsOf()).some((h) => h.symbol === 'TCS')).to.equal(true);
    await holdingRow(page, 'TCS').waitFor();
  });

  it("lists each account that failed under 'Failed to delete some holdings'", async () => {
    const { page } = suite;
    const reliance = (await holdingsOf()).filter((h) => h.symbol === 'RELIANCE');
    expect(reliance).to.have.length(2);
    const zerodha = reliance.find((h) => h.broker_name === 'Zerodha')!;
    const target = `/api/holdings/${zerodha.id}`;
    const failing = (url: URL) => url.pathname === target;
    await page.route(failing, failWith('Could not delete this holding right now'));
    await deleteHolding(page, 'RELIANCE');
    const alert = page.getByRole('alert').filter({ hasText: 'Failed to delete some holdings' });
    await alert.waitFor();
    expect(await alert.locator('li').allInnerTexts()).to.deep.equal([
      'Zerodha · AB1: Could not delete this holding right now',
    ]);
    await page.unroute(failing);
    // The manual account's row went; the Zerodha one stayed.
    const left = (await holdingsOf()).filter((h) => h.symbol === 'RELIANCE');
    expect(left.map((h) => h.id)).to.deep.equal([zerodha.id]);
    await holdingRow(page, 'RELIANCE').locator('[data-col="qty"]').getByText('5', { exact: true }).waitFor();
    await alert.getByRole('button', { name: /Dismiss/ }).click();
  });

  it("says 'Failed to delete all holdings. Please try again.' when Delete All fails", async () => {
    const { page, errors } = suite;
    const failing = (url: URL) => url.pathname === '/api/holdings/all';
    await page.route(failing, failWith('Database unavailable'));
    await deleteAllHoldings(page);
    await page
      .getByRole('alert')
      .filter({ hasText: 'Failed to delete all holdings. Please try again.' })
      .waitFor();
    await page.unroute(failing);
    expect((await holdingsOf()).map((h) => h.symbol).sort()).to.deep.equal(['INFY', 'RELIANCE', 'TCS']);
    expect(await page.locator('tr.holding-row').count()).to.equal(3);
    expect(errors).to.deep.equal([]);
  });
});
