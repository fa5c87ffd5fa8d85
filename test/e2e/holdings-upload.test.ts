/**
 * The upload dialog never surprises (issue 17), in Chromium against the real app: a second Dhan
 * file asks which account it goes to, a row that matches no stock is left out, the preview lists
 * what the upload changes and removes in the chosen account, and the summary counts the skipped row.
 * Screenshots of the preview at 1280 and 375 px.
 */
import { expect } from 'chai';
import { waitFor } from '../helpers/wait.ts';
import type { Page } from 'playwright-core';
import { readShared } from '../helpers/shared-data.ts';
import path from 'node:path';
import { assertNoHorizontalScroll, screenshot, screenshotDir } from '../helpers/browser.ts';
import {
  chooseFile,
  confirmUpload,
  createRuleOncePriced,
  holdingRow,
  replayCsv,
  signedInSuite,
  tableSymbols,
  uploadDialog,
  uploadHoldings,
} from './support.ts';

/** The same Dhan account a month later: more HDFC Bank, Coal India and ONGC sold, one unknown row. */
const NEXT_STATEMENT = [
  '"Name","Quantity","Avg Price","Last Traded"',
  '"HDFC Bank",150,"840.00","746.70"',
  '"Zqxv Unheard Of Industries",7,"12.00","11.00"',
].join('\n');

describe('e2e: the upload dialog (account, skipped rows, removals)', function () {
  this.timeout(90_000);
  const suite = signedInSuite({
    name: 'Ravi Iyer',
    replay: {
      csv: replayCsv([
        ['HDFCBANK', 746.7, 740],
        ['COALINDIA', 480.5, 478],
        ['ONGC', 240.1, 238],
      ]),
      intervalMs: 500,
    },
    seed: async (app, user) => {
      await uploadHoldings(app, user, { csvData: readShared('fixtures/brokers/dhan_holdings.csv') });
      await createRuleOncePriced(app, user, {
        symbol: 'COALINDIA',
        rule_name: 'Coal India stop',
        trigger_type: 'FIXED_STOP_LOSS',
        trigger_value: 5,
      });
    },
    viewport: { width: 1280, height: 1000 },
  });

  /** Opens the dialog on `target` and chooses the next statement. */
  async function openWithFile(target: Page) {
    await target.goto(`${suite.app.url}/holdings?upload=csv`);
    const dialog = uploadDialog(target);
    await chooseFile(dialog, { name: 'dhan.csv', mimeType: 'text/csv', buffer: Buffer.from(NEXT_STATEMENT) });
    await dialog.getByText('Choose the stock for this row').waitFor();
    return dialog;
  }

  it('asks for the account, leaves out the unknown row, shows the removals, and counts the skipped row', async () => {
    const { page, errors } = suite;
    const dialog = await openWithFile(page);
    const upload = dialog.getByRole('button', { name: 'Upload', exact: true });
    await dialog
      .getByText('You already have a Dhan account (Dhan) and this file does not name its client ID.', {
        exact: false,
      })
      .waitFor();
    expect(await upload.isDisabled()).to.equal(true);

    await dialog.getByRole('button', { name: 'Leave out row 2' }).click();
    await dialog.getByText('Left out: this row will not be uploaded').waitFor();
    // Still no account: nothing can be stored yet.
    expect(await upload.isDisabled()).to.equal(true);

    await dialog.getByRole('radio', { name: /^Dhan/ }).check();
    const changes = dialog.locator('.upload-changes');
    await changes.getByText('0 new, 1 changed, 2 removed, 1 skipped.', { exact: false }).waitFor();
    expect(await changes.locator('.upload-changes-summary strong').innerText()).to.equal('Dhan');
    const removals = dialog.getByRole('group', { name: 'Holdings this upload removes' });
    await removals.getByText('2 holdings will be removed').waitFor();
    expect(await removals.locator('.upload-removed-symbol').allInnerTexts()).to.deep.equal([
      'COALINDIA NSE',
      'ONGC NSE',
    ]);
    await dialog.getByText('was 130 @ ₹831.89').waitFor();
    // The exit rule on a removed holding goes with it: the preview says so by name.
    await removals.getByText('1 exit rule will be deleted too').waitFor();
    expect(
      await removals.getByRole('region', { name: 'Exit rules this upload deletes' }).innerText(),
    ).to.equal('Coal India stop (COALINDIA)');
    await screenshot(page, 'upload-preview-desktop-1280');
    await dialog.screenshot({ path: path.join(screenshotDir, 'upload-preview-dialog-1280.png') });

    await confirmUpload(dialog);
    // The notice repeats the preview's counts, in its words, and names the rule that went.
    await page
      .getByText(
        'Uploaded 1 holding to Dhan: 0 new, 1 changed, 2 removed, 1 skipped. 1 exit rule removed: Coal India stop.',
      )
      .waitFor();
    // The table refreshes just after the notice: wait for the removed rows to go.
    await waitFor('the table to list HDFCBANK alone', async () => {
      const symbols = await tableSymbols(page);
      return symbols.length === 1 && symbols[0] === 'HDFCBANK';
    });
    expect(await holdingRow(page, 'HDFCBANK').locator('[data-col="qty"]').innerText()).to.equal('150');
    expect(errors).to.deep.equal([]);
  });

  it('fits a phone: the preview with its removals and prices at 375 px', async () => {
    const { app, user, context } = suite;
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 375, height: 812 });
    // Put the sold holdings back, so that the preview has removals to show.
    await uploadHoldings(app, user, {
      csvData: readShared('fixtures/brokers/dhan_holdings.csv'),
      account: { new_name: 'Dhan · Family' },
    });
    const dialog = await openWithFile(phone);
    await dialog.getByRole('radio', { name: /^Dhan · Family/ }).check();
    await dialog.getByRole('button', { name: 'Leave out row 2' }).click();
    await dialog.getByText('2 holdings will be removed').waitFor();
    await assertNoHorizontalScroll(phone);
    const table = dialog.locator('.upload-rows');
    const fits = await table.evaluate((el) => el.scrollWidth <= el.clientWidth);
    expect(fits, 'the preview table fits the phone without scrolling sideways').to.equal(true);
    await screenshot(phone, 'upload-preview-phone-375');
    await phone.close();
  });
});
