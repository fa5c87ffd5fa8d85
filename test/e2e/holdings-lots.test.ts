/**
 * A lot added by hand beside the same stock from a broker file (issue 28, item 13): it stays
 * editable in the expanded row, and deleting the row says which accounts' lots come back at their
 * next upload. Screenshots at 1280 and 375 px.
 */
import { expect } from 'chai';
import { apiClient } from '../helpers/http.ts';
import { PHONE, screenshot } from '../helpers/browser.ts';
import { holdingRow, signedInSuite, uploadHoldings } from './support.ts';

describe('e2e: a manual lot beside an uploaded one', function () {
  this.timeout(90_000);
  const suite = signedInSuite({
    name: 'Arjun Menon',
    viewport: { width: 1280, height: 1000 },
    seed: async (app, user) => {
      const manual = await apiClient(app.url).post(
        '/api/holdings/manual',
        { symbol: 'TCS', exchange: 'NSE', quantity: 5, average_price: 3300 },
        user.token,
      );
      if (manual.status !== 201) throw new Error(`manual TCS: ${manual.status}`);
      await uploadHoldings(app, user, {
        csvData: 'Symbol,Quantity,Buy Price\nTCS,10,3400\nITC,20,400\n',
        broker_name: 'Zerodha · AB1234',
      });
    },
    path: '/holdings',
  });

  it('edits the manual lot in the expanded row, and the total follows', async () => {
    const { page, errors } = suite;
    const row = holdingRow(page, 'TCS');
    await row.waitFor();
    expect(await row.locator('[data-col="qty"]').innerText()).to.equal('15');
    await row.locator('.expand-button').click();
    const edit = page.getByRole('button', { name: /^Edit quantity of TCS in Manual/ });
    await edit.click();
    const input = page.getByRole('spinbutton', { name: 'New quantity of TCS in Manual' });
    await input.fill('7');
    await input.press('Enter');
    await page.getByRole('button', { name: 'Edit quantity of TCS in Manual: 7' }).waitFor();
    expect(await row.locator('[data-col="qty"]').innerText()).to.equal('17');
    // The imported lot is not editable here: its file says what it holds.
    expect(await page.getByRole('button', { name: /^Edit quantity of TCS in Zerodha/ }).count()).to.equal(0);
    await screenshot(page, 'holdings-manual-lot-1280');
    expect(errors).to.deep.equal([]);
  });

  it('says which accounts’ lots come back at their next upload before deleting', async () => {
    const { page } = suite;
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Delete TCS (NSE)' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Delete TCS?' });
    await dialog
      .getByText('The lot in Zerodha · AB1234 comes back at its next upload if that file still lists TCS.')
      .waitFor();
    await screenshot(page, 'holdings-delete-lots-phone-375');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
});
