/**
 * The Holdings screen in Chromium against the real app: a Zerodha Kite file through the
 * upload dialog, the aggregated table, expanding, sorting, the summary's eye toggle, manual
 * entry with the symbol search, inline edit, and Delete All. Prices come from a replay file,
 * so every figure is known.
 */
import { expect } from 'chai';
import { screenshot } from '../helpers/browser.ts';
import { sharedPath } from '../helpers/shared-data.ts';
import { addHolding } from '../server/rules/support.ts';
import {
  chooseFile,
  confirmUpload,
  consoleWorkbook,
  deleteAllHoldings,
  deleteHolding,
  editInline,
  holdingRow,
  KITE_PRICES,
  openManualEntry,
  openUploadDialog,
  replayCsv,
  signedInSuite,
  tableSymbols,
  uploadDialog,
  showValues,
} from './support.ts';

const KITE_FILE = sharedPath('fixtures/brokers/zerodha_kite_holdings.csv');

const REPLAY = replayCsv([...KITE_PRICES, ['GOLDIAM', 398.75, 402.1]]);

describe('e2e: Holdings page', function () {
  this.timeout(90_000);
  const suite = signedInSuite({ name: 'Asha Verma', replay: { csv: REPLAY, intervalMs: 400 } });

  it('uploads a Zerodha Kite file through the dialog and shows the aggregated table', async () => {
    const { app, page } = suite;
    await page.goto(`${app.url}/holdings?upload=csv`);
    const dialog = uploadDialog(page);
    await dialog.waitFor();
    expect(await dialog.getByText('up to 1000 holdings at once').count()).to.equal(1);
    await chooseFile(dialog, KITE_FILE);
    await dialog.getByText('File loaded successfully').waitFor();
    await dialog.getByText('Zerodha (Kite)').waitFor();
    const account = dialog.getByLabel('Account name');
    expect(await account.inputValue()).to.equal('Zerodha');
    await account.fill('Zerodha · AB1234');
    await confirmUpload(dialog);
    await page.getByText('Uploaded 5 holdings to Zerodha · AB1234').waitFor();
    expect(new URL(page.url()).search).to.equal('');

    await page.locator('tr.holding-row').nth(4).waitFor();
    expect(await tableSymbols(page)).to.deep.equal(['BAJAJ-AUTO', 'IDEA', 'M&M', 'NIFTYBEES', 'SBIN']);
    const sbin = holdingRow(page, 'SBIN');
    await sbin.locator('[data-col="ltp"]').getByText('₹1,021.10').waitFor();
    // Amounts stay hidden (****) with the summary's until the eye toggle shows them.
    expect(await sbin.locator('[data-col="pnl"]').innerText()).to.equal('****');
    expect(await sbin.locator('[data-col="gain"]').innerText()).to.equal('+4.81%');
  });

  it('expands a row to show the broker account with its rules slot', async () => {
    const { page } = suite;
    const toggle = holdingRow(page, 'SBIN').locator('.expand-button');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).to.equal('true');
    const details = page.locator('.holding-details').first();
    await details.getByText('Zerodha · AB1234').waitFor();
    await details.getByText('File import').waitFor();
    await details.getByRole('button', { name: 'Add a rule for SBIN (NSE)' }).waitFor();
    await details.locator('.price-chart, .chart-placeholder').first().waitFor();
  });

  it('sorts by P&L, and the second click flips the order', async () => {
    const { page } = suite;
    const header = page.getByRole('columnheader', { name: /P&L/ });
    await header.getByRole('button').click();
    expect(await header.getAttribute('aria-sort')).to.equal('ascending');
    expect(await tableSymbols(page)).to.deep.equal(['BAJAJ-AUTO', 'IDEA', 'M&M', 'SBIN', 'NIFTYBEES']);
    await header.getByRole('button').click();
    expect(await header.getAttribute('aria-sort')).to.equal('descending');
    expect(await tableSymbols(page)).to.deep.equal(['NIFTYBEES', 'SBIN', 'M&M', 'IDEA', 'BAJAJ-AUTO']);
    expect(await page.getByRole('columnheader', { name: /Symbol/ }).getAttribute('aria-sort')).to.equal(
      'none',
    );
  });

  it("hides the summary values and the rows' P&L until the eye toggle shows them", async () => {
    const { page } = suite;
    const investment = page.locator('[data-stat="Total Investment"]');
    expect(await investment.innerText()).to.equal('****');
    await showValues(page);
    expect(await investment.innerText()).to.equal('₹2,01,885.05');
    await page.locator('[data-stat="P&L"]').getByText('+₹4,599.65').waitFor();
    expect(await holdingRow(page, 'SBIN').locator('[data-col="pnl"]').innerText()).to.equal('+₹703.50');
    const bajaj = holdingRow(page, 'BAJAJ-AUTO');
    expect(await bajaj.locator('[data-col="pnl"] span').getAttribute('class')).to.contain('text-loss');
    expect(await page.locator('[data-stat="Holdings Count"]').innerText()).to.equal('5');
  });

  it('adds a holding by hand with the symbol search, then edits its quantity in place', async () => {
    const { page } = suite;
    const form = await openManualEntry(page);
    const symbol = form.getByRole('combobox', { name: /Symbol/ });
    await symbol.fill('RELIAN');
    const option = page.getByRole('option', { name: /RELIANCE/ }).first();
    await option.waitFor();
    await symbol.press('ArrowDown');
    await symbol.press('Enter');
    expect(await symbol.inputValue()).to.equal('RELIANCE');
    expect(await page.getByRole('listbox').first().isVisible()).to.equal(false);
    await form.getByLabel(/Quantity/).fill('10');
    await form.getByLabel(/Buy Price/).fill('1400');
    await form.getByRole('button', { name: 'Save All' }).click();
    await page.getByText('1 holding was added.').waitFor();
    const row = holdingRow(page, 'RELIANCE');
    await row.waitFor();

    const input = await editInline(row, 'RELIANCE', 'quantity');
    await input.fill('0');
    await input.press('Enter');
    await row.getByText('Quantity must be a positive number').waitFor();
    await input.fill('25');
    await input.press('Enter');
    await row.locator('[data-col="qty"]').getByText('25', { exact: true }).waitFor();
    await row.locator('[data-col="pnl"]').getByText('+₹2,307.50').waitFor();

    // Imported holdings are not editable.
    expect(
      await holdingRow(page, 'SBIN')
        .getByRole('button', { name: /Edit quantity/ })
        .count(),
    ).to.equal(0);
  });

  it('deletes all holdings after a confirmation', async () => {
    const { page, errors } = suite;
    await deleteAllHoldings(page);
    await page.getByText('6 holdings were deleted.').waitFor();
    await page.getByRole('heading', { name: 'No holdings yet' }).waitFor();
    expect(await page.locator('tr.holding-row').count()).to.equal(0);
    expect(errors).to.deep.equal([]);
  });

  it('refuses a file that is neither CSV nor XLSX, saying what is accepted', async () => {
    const dialog = await openUploadDialog(suite.page);
    await chooseFile(dialog, {
      name: 'holdings.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4'),
    });
    await dialog.getByText('Please upload a CSV file only, and check that the file ends with .csv').waitFor();
    await dialog
      .getByText(/\.xlsx/)
      .first()
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('reads a Zerodha Console XLSX in the browser, from its Equity sheet', async () => {
    const { page } = suite;
    const dialog = await openUploadDialog(page);
    await chooseFile(dialog, {
      name: 'holdings-AB1234.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await consoleWorkbook(),
    });
    await dialog.getByText('Zerodha (Console)').waitFor();
    // The file's client ID picks the account uploaded first under that name.
    const account = dialog.getByRole('radio', { name: /^Zerodha · AB1234/ });
    expect(await account.isChecked()).to.equal(true);
    const previewSymbols = await dialog
      .locator('.upload-rows tbody tr td:nth-child(2) strong')
      .allInnerTexts();
    expect(previewSymbols).to.deep.equal(['INFY', 'GOLDIAM', 'NIFTYBEES']);
    await confirmUpload(dialog);
    await page.getByText('Uploaded 3 holdings to Zerodha · AB1234').waitFor();
    await page.locator('tr.holding-row').nth(2).waitFor();
    expect((await tableSymbols(page)).sort()).to.deep.equal(['GOLDIAM', 'INFY', 'NIFTYBEES']);
  });

  it('lets the user pick the stock for a row the server could not match, then imports it', async () => {
    const { page } = suite;
    const csv = [
      '"Name","Quantity","Avg Price","Last Traded"',
      '"HDFC Bank",4,"831.89","746.70"',
      '"Acme Widgets Private",7,"120.00","118.00"',
    ].join('\n');
    const dialog = await openUploadDialog(page);
    await chooseFile(dialog, { name: 'dhan.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByText('Choose the stock for this row').waitFor();
    await dialog.getByText('Row 2 (Acme Widgets Private): Could not find this stock').waitFor();
    const upload = dialog.getByRole('button', { name: 'Upload', exact: true });
    expect(await upload.isDisabled()).to.equal(true);
    const search = dialog.getByRole('combobox', { name: 'Stock for row 2' });
    await search.fill('ITC');
    await dialog.getByRole('option', { name: /^ITC/ }).first().click();
    await dialog.getByText('Using').waitFor();
    await dialog.getByLabel('Account name').fill('Dhan · DH42');
    await confirmUpload(dialog);
    await page.getByText('Uploaded 2 holdings to Dhan · DH42').waitFor();
    await holdingRow(page, 'ITC').waitFor();
    await holdingRow(page, 'HDFCBANK').waitFor();
    await deleteHolding(page, 'HDFCBANK');
    await page.getByText('HDFCBANK (NSE) was deleted.').waitFor();
    await deleteHolding(page, 'ITC');
    await page.getByText('ITC (NSE) was deleted.').waitFor();
  });

  it('screenshots the Holdings page and the Dashboard with data', async () => {
    const { app, user, context, page } = suite;
    await addHolding(app, user, 'RELIANCE', 25, 1418.6);
    await page.setViewportSize({ width: 1280, height: 900 });
    const dialog = await openUploadDialog(page);
    await chooseFile(dialog, KITE_FILE);
    // A Kite file names no client ID and the user has a Zerodha account: they choose a new one.
    await dialog.getByText('You already have a Zerodha account', { exact: false }).waitFor();
    await dialog.getByRole('radio', { name: /^A new account/ }).check();
    expect(await dialog.getByLabel('Account name').inputValue()).to.equal('Zerodha');
    await dialog.getByText('Into the new account').waitFor();
    await confirmUpload(dialog);
    await page.reload();
    await holdingRow(page, 'SBIN').locator('[data-col="ltp"]').getByText('₹').waitFor();
    expect(await holdingRow(page, 'NIFTYBEES').locator('[data-col="qty"]').innerText()).to.equal('650');
    await holdingRow(page, 'NIFTYBEES').locator('.expand-button').click();
    await page.locator('.holding-details .account-item').nth(1).waitFor();
    await page
      .locator('.price-chart')
      .waitFor({ timeout: 10_000 })
      .catch(() => undefined);
    await showValues(page);
    await page.waitForTimeout(1500);
    await screenshot(page, 'holdings-desktop-1280');

    const phone = await context.newPage();
    await phone.setViewportSize({ width: 375, height: 800 });
    await phone.goto(`${app.url}/holdings`);
    await phone.locator('li.holding-card').first().waitFor();
    await phone.waitForTimeout(800);
    await screenshot(phone, 'holdings-phone-375');

    await phone.setViewportSize({ width: 1280, height: 900 });
    await phone.goto(`${app.url}/dashboard`);
    await phone.getByText('Allocation').waitFor();
    await phone.locator('.allocation-chart svg').first().waitFor();
    await phone.waitForTimeout(800);
    await screenshot(phone, 'dashboard-desktop-1280');
    await phone.close();
  });
});
