/**
 * The upload dialog catches what a user would otherwise find later (issue 28): a typo'd symbol is
 * offered the listed symbol a click away ("did you mean RELIANCE?"), or left out; an empty file or
 * a PDF renamed .csv is told as such, with no green "loaded successfully" beside the error; the
 * preview has no serious axe finding and its scrolling table and list of removals take keyboard focus.
 */
import { expect } from 'chai';
import { seriousViolations } from '../helpers/axe.ts';
import { assertNoHorizontalScroll, screenshot, screenshotDir } from '../helpers/browser.ts';
import {
  chooseFile,
  confirmUpload,
  holdingRow,
  signedInSuite,
  tableSymbols,
  uploadDialog,
  uploadHoldings,
} from './support.ts';

const csv = (text: string) => ({ name: 'holdings.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });

describe('e2e: the upload dialog fixes typos and tells bad files apart', function () {
  this.timeout(90_000);
  const suite = signedInSuite({ name: 'Meera Pillai', viewport: { width: 1280, height: 1000 } });

  async function openWith(text: string) {
    await suite.page.goto(`${suite.app.url}/holdings?upload=csv`);
    const dialog = uploadDialog(suite.page);
    await chooseFile(dialog, csv(text));
    return dialog;
  }

  it('offers RELIANCE for RELIANSE in one click, with Undo, and leaves out a row in one click', async () => {
    const { page, errors } = suite;
    const dialog = await openWith('Symbol,Quantity,Buy Price\nRELIANSE,10,2500\nTCSS,2,3500\nINFY,5,1500\n');
    await dialog.getByText('Did you mean').first().waitFor();
    await dialog.screenshot({ path: `${screenshotDir}/upload-did-you-mean-1280.png` });
    const useReliance = dialog.getByRole('button', { name: /^Use RELIANCE \(.*\) for row 1$/ });
    await useReliance.click();
    await dialog.getByText('Changed from RELIANSE').waitFor();
    await dialog.getByRole('button', { name: 'Undo the change of row 1' }).click();
    await useReliance.click();
    await dialog.getByText('Changed from RELIANSE').waitFor();
    await dialog.getByRole('button', { name: 'Leave out row 2' }).click();
    await dialog.getByText('Left out: row 2 (TCSS) will not be uploaded.').waitFor();
    await dialog.getByText('2 new, 0 changed, 0 removed, 1 skipped.', { exact: false }).waitFor();
    await confirmUpload(dialog);
    await holdingRow(page, 'RELIANCE').waitFor();
    expect(await tableSymbols(page)).to.deep.equal(['INFY', 'RELIANCE']);
    expect(errors).to.deep.equal([]);
  });

  it('fits a phone: the suggestions at 375 px', async () => {
    const phone = await suite.context.newPage();
    await phone.setViewportSize({ width: 375, height: 812 });
    await phone.goto(`${suite.app.url}/holdings?upload=csv`);
    const dialog = uploadDialog(phone);
    await chooseFile(dialog, csv('Symbol,Quantity,Buy Price\nRELIANSE,10,2500\nHDFCBNK,3,1600\n'));
    await dialog.getByRole('button', { name: /^Use RELIANCE/ }).waitFor();
    await assertNoHorizontalScroll(phone);
    await screenshot(phone, 'upload-did-you-mean-phone-375');
    await phone.close();
  });

  it('tells an empty file and a PDF renamed .csv as such, never "loaded successfully" beside the error', async () => {
    const { page } = suite;
    await page.goto(`${suite.app.url}/holdings?upload=csv`);
    const dialog = uploadDialog(page);
    await chooseFile(dialog, { name: 'holdings.csv', mimeType: 'text/csv', buffer: Buffer.alloc(0) });
    await dialog
      .getByText('This file is empty: download your holdings from your broker again', { exact: false })
      .waitFor();
    expect(await dialog.getByText('File loaded successfully').count()).to.equal(0);

    await dialog.getByRole('button', { name: 'Remove file' }).click();
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n');
    await chooseFile(dialog, { name: 'holdings.csv', mimeType: 'text/csv', buffer: pdf });
    await dialog
      .getByText('This looks like a PDF, not a CSV: download Holdings as CSV', { exact: false })
      .waitFor();
    expect(await dialog.getByText('File loaded successfully').count()).to.equal(0);

    // A file missing a column: its error, and no green tick beside it either.
    await dialog.getByRole('button', { name: 'Remove file' }).click();
    await chooseFile(dialog, csv('Symbol,Price\nTCS,10\n'));
    await dialog.getByText('Missing required column: Quantity/Qty').waitFor();
    expect(await dialog.getByText('File loaded successfully').count()).to.equal(0);
    await screenshot(page, 'upload-bad-file-1280');
  });

  it('has no serious axe finding in the preview, and its scrolling table takes keyboard focus', async () => {
    const { page } = suite;
    const rows = Array.from(
      { length: 30 },
      (_, i) => `${['TCS', 'INFY', 'ITC', 'SBIN', 'WIPRO'][i % 5]},${i + 1},100`,
    );
    const dialog = await openWith(['Symbol,Quantity,Buy Price', ...rows].join('\n'));
    await dialog.getByText('File loaded successfully').waitFor();
    const table = dialog.getByRole('region', { name: 'Holdings found in the file' });
    await table.waitFor();
    expect(await table.evaluate((el) => el.scrollHeight > el.clientHeight), 'the table scrolls').to.equal(
      true,
    );
    await table.focus();
    await page.keyboard.press('PageDown');
    await page.waitForFunction(() => (document.querySelector('.upload-rows')?.scrollTop ?? 0) > 0);
    expect(await seriousViolations(page)).to.deep.equal([]);
  });

  it('lists many removals in a region that scrolls with the keyboard, with no serious axe finding', async () => {
    const { app, user, page } = suite;
    const held = ['TCS', 'INFY', 'ITC', 'SBIN', 'WIPRO', 'HDFCBANK', 'ICICIBANK', 'LT', 'AXISBANK', 'NTPC'];
    await uploadHoldings(app, user, {
      csvData: ['Symbol,Quantity,Buy Price', ...held.map((symbol, i) => `${symbol},${i + 1},100`)].join('\n'),
      account: { new_name: 'Upstox' },
    });
    // The next statement keeps TCS only: nine holdings go.
    const dialog = await openWith('Symbol,Quantity,Buy Price\nTCS,1,100\n');
    await dialog.getByRole('radio', { name: /^Upstox/ }).check();
    const removed = dialog.getByRole('region', { name: 'Holdings removed' });
    await removed.getByText('NTPC').waitFor();
    expect(await removed.evaluate((el) => el.scrollHeight > el.clientHeight), 'the list scrolls').to.equal(
      true,
    );
    await removed.focus();
    await page.keyboard.press('PageDown');
    await page.waitForFunction(() => (document.querySelector('.upload-scroll-list')?.scrollTop ?? 0) > 0);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await page.screenshot({ path: `${screenshotDir}/upload-removals-focused-1280.png` });
    await page.setViewportSize({ width: 375, height: 812 });
    await removed.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${screenshotDir}/upload-removals-focused-375.png` });
    await page.setViewportSize({ width: 1280, height: 1000 });
  });
});
