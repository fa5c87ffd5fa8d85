/**
 * The Holdings page's smaller paths in Chromium against the real app: the phone card's
 * figures, the symbol search box's texts, a manual Save All that half succeeds, inline edit
 * cancelling, and the delete failure texts of spec §8 (the failing calls made to fail with
 * page.route). Prices come from a replay file, so every figure is known.
 */
import { expect } from 'chai';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { PHONE } from '../helpers/browser.ts';
import { apiClient } from '../helpers/http.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { pageErrors, signedInContext } from './support.ts';

const REPLAY = [
  'time,symbol,exchange,price,prev_close',
  'open,INFY,NSE,1500.00,1480.00',
  'open,RELIANCE,NSE,1500.00,1490.00',
  'open,TCS,NSE,3400.00,3380.00',
].join('\n');

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
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let user: SignedInUser;

  const holdingsOf = async () =>
    (await apiClient(app.url).get<HoldingRow[]>('/api/holdings', user.token)).body.data!;

  before(async () => {
    ({ app, browser } = await startBrowserSuite({ replay: { csv: REPLAY, intervalMs: 500 } }));
    user = await signIn(app, { name: 'Nikhil Shah' });
    const api = apiClient(app.url);
    for (const holding of [
      { symbol: 'INFY', exchange: 'NSE', quantity: 10, average_price: 1400 },
      { symbol: 'RELIANCE', exchange: 'NSE', quantity: 20, average_price: 1450 },
    ]) {
      const res = await api.post('/api/holdings/manual', holding, user.token);
      expect(res.status, res.body.error).to.equal(201);
    }
    const upload = await api.post(
      '/api/holdings/upload-csv',
      { csvData: 'Symbol,Quantity,Buy Price\nRELIANCE,5,1480', broker_name: 'Zerodha · AB1' },
      user.token,
    );
    expect(upload.status, upload.body.error).to.equal(201);
    context = await signedInContext(browser, app, user);
    page = await context.newPage();
    errors = pageErrors(page);
  });

  after(async () => {
    await stopBrowserSuite({ app, browser });
  });

  it('shows Qty, Buy Price, Gain %, Invested, LTP and Net P&L on a 375 px phone card', async () => {
    const phoneContext = await signedInContext(browser, app, user, PHONE);
    const phone = await phoneContext.newPage();
    await phone.goto(`${app.url}/holdings`);
    const card = phone.locator('li.holding-card[data-symbol="INFY"]');
    await card.locator('[data-col="ltp"]').getByText('₹1,500.00').waitFor();
    expect(await phone.locator('table.holdings-table').count()).to.equal(0);
    await phone.getByRole('button', { name: 'Show values' }).click();
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
    const searches: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname === '/api/symbols/search') searches.push(url.searchParams.get('query') ?? '');
    });
    await page.goto(`${app.url}/holdings`);
    await page.locator('tr.holding-row[data-symbol="INFY"]').waitFor();
    await page.getByRole('button', { name: '+ Add New' }).click();
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
    await page.getByRole('button', { name: '+ Add New' }).click();
    const form = page.locator('form.manual-entry');
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
    const tcs = page.locator('tr.holding-row[data-symbol="TCS"]');
    await tcs.locator('[data-col="qty"]').getByText('5', { exact: true }).waitFor();
    expect(await page.locator('tr.holding-row[data-symbol="INFY"] [data-col="qty"]').innerText()).to.equal(
      '10',
    );
    // Only the refused row stays in the form.
    expect(await form.getByRole('combobox', { name: 'Symbol (row 1)', exact: true }).inputValue()).to.equal(
      'INFY',
    );
    expect(await form.getByRole('combobox', { name: 'Symbol (row 2)', exact: true }).count()).to.equal(0);
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('cancels an inline edit on Escape and on an empty value, without a request', async () => {
    const puts: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'PUT') puts.push(req.url());
    });
    const row = page.locator('tr.holding-row[data-symbol="INFY"]');
    const input = row.getByRole('spinbutton', { name: 'New quantity of INFY' });

    await row.getByRole('button', { name: /Edit quantity of INFY/ }).click();
    await input.fill('99');
    await input.press('Escape');
    await input.waitFor({ state: 'detached' });
    expect(await row.locator('[data-col="qty"]').innerText()).to.equal('10');

    await row.getByRole('button', { name: /Edit quantity of INFY/ }).click();
    await input.fill('');
    await input.press('Enter');
    await input.waitFor({ state: 'detached' });
    expect(await row.locator('[data-col="qty"]').innerText()).to.equal('10');

    await row.getByRole('button', { name: /Edit buy price of INFY/ }).click();
    const price = row.getByRole('spinbutton', { name: 'New buy price of INFY' });
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
    const tcs = (await holdingsOf()).find((h) => h.symbol === 'TCS');
    expect(tcs, 'TCS was added by the previous test').to.not.equal(undefined);
    const target = `/api/holdings/${tcs!.id}`;
    const failing = (url: URL) => url.pathname === target;
    await page.route(failing, failWith('Could not delete this holding right now'));
    await page.getByRole('button', { name: 'Delete TCS (NSE)' }).click();
    await page
      .getByRole('dialog', { name: 'Delete TCS?' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    const alert = page.getByRole('alert').filter({ hasText: 'Failed to delete holding' });
    await alert.waitFor();
    expect(await alert.locator('li').count()).to.equal(0);
    await page.unroute(failing);
    await alert.getByRole('button', { name: /Dismiss/ }).click();
    expect((await holdingsOf()).some((h) => h.symbol === 'TCS')).to.equal(true);
    await page.locator('tr.holding-row[data-symbol="TCS"]').waitFor();
  });

  it("lists each account that failed under 'Failed to delete some holdings'", async () => {
    const reliance = (await holdingsOf()).filter((h) => h.symbol === 'RELIANCE');
    expect(reliance).to.have.length(2);
    const zerodha = reliance.find((h) => h.broker_name === 'Zerodha')!;
    const target = `/api/holdings/${zerodha.id}`;
    const failing = (url: URL) => url.pathname === target;
    await page.route(failing, failWith('Could not delete this holding right now'));
    await page.getByRole('button', { name: 'Delete RELIANCE (NSE)' }).click();
    await page
      .getByRole('dialog', { name: 'Delete RELIANCE?' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    const alert = page.getByRole('alert').filter({ hasText: 'Failed to delete some holdings' });
    await alert.waitFor();
    expect(await alert.locator('li').allInnerTexts()).to.deep.equal([
      'Zerodha · AB1: Could not delete this holding right now',
    ]);
    await page.unroute(failing);
    // The manual account's row went; the Zerodha one stayed.
    const left = (await holdingsOf()).filter((h) => h.symbol === 'RELIANCE');
    expect(left.map((h) => h.id)).to.deep.equal([zerodha.id]);
    await page
      .locator('tr.holding-row[data-symbol="RELIANCE"] [data-col="qty"]')
      .getByText('5', { exact: true })
      .waitFor();
    await alert.getByRole('button', { name: /Dismiss/ }).click();
  });

  it("says 'Failed to delete all holdings. Please try again.' when Delete All fails", async () => {
    const failing = (url: URL) => url.pathname === '/api/holdings/all';
    await page.route(failing, failWith('Database unavailable'));
    await page.getByRole('button', { name: 'Delete All Holdings' }).click();
    await page
      .getByRole('dialog', { name: 'Delete all holdings?' })
      .getByRole('button', { name: 'Delete All Holdings' })
      .click();
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
