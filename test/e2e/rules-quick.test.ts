/**
 * Issue #28 item 8 in Chromium against the real app: New Rule creates one stop on one screen, as
 * a Kite GTT (holding, kind, a price, where the alert goes, a generated name); the 4-step wizard
 * stays one click away. Screenshots at 1280 and 375 px.
 */
import { expect } from 'chai';
import { assertNoHorizontalScroll, PHONE } from '../helpers/browser.ts';
import { apiClient } from '../helpers/http.ts';
import { addHolding, publishPrices } from '../server/rules/support.ts';
import { docsScreenshot, holdingRow, openSignedIn, pageErrors, signedInSuite } from './support.ts';

describe('e2e: a new rule on one screen', function () {
  this.timeout(120_000);
  const suite = signedInSuite({
    name: 'Arjun Mehta',
    embeddedStreamer: false,
    async seed(app, user) {
      await publishPrices(app, { PXQUICK: 1469.75, PXWIZ: 820 });
      await addHolding(app, user, 'PXQUICK', 40, 1300);
      await addHolding(app, user, 'PXWIZ', 10, 800);
    },
    path: '/holdings',
  });

  it('creates a fixed stop at ₹1,400 with a holding, a price and a generated name', async () => {
    const { app, user, page, errors } = suite;
    await page.getByRole('button', { name: 'New Rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New rule' });
    expect(await dialog.getByLabel('Holding').inputValue()).to.equal('NSE:PXQUICK');
    await dialog.getByText('LTP ₹1,469.75').waitFor();
    expect(await dialog.getByLabel('Rule', { exact: true }).inputValue()).to.equal('FIXED_STOP_LOSS');
    const unit = dialog.getByLabel('Unit');
    expect(await unit.inputValue()).to.equal('PRICE');
    expect((await unit.locator('option').allInnerTexts())[0]).to.equal('Price (₹)');
    await dialog.getByText(`In the app, and by email to ${user.email}.`).waitFor();
    await dialog.getByRole('link', { name: 'Change in Settings' }).waitFor();

    const price = dialog.getByLabel('Trigger price');
    await price.fill('1500');
    await dialog
      .getByText(
        'The stop loss level ₹1,500.00 is at or above the current price ₹1,469.75; it would fire at once. Choose a lower level.',
      )
      .waitFor();
    await price.fill('1400');
    await dialog.getByText(/Alert when the price falls to\s*₹1,400\.00/).waitFor();
    expect(await dialog.getByLabel(/Name/).getAttribute('placeholder')).to.equal(
      'Fixed stop loss at ₹1,400.00',
    );
    await docsScreenshot(page, 'rules-new-rule-1280.png');
    await dialog.getByRole('button', { name: 'Create rule' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Rule created: PXQUICK, Fixed stop loss at ₹1,400.00.').waitFor();
    await holdingRow(page, 'PXQUICK').getByText('1 rule').waitFor();

    const rules = await apiClient(app.url).get<Array<Record<string, unknown>>>(
      '/api/position-rules',
      user.token,
    );
    expect(rules.body.data![0]).to.deep.include({
      symbol: 'PXQUICK',
      rule_scope: 'all_holdings',
      trigger_type: 'FIXED_STOP_LOSS',
      value_type: 'PRICE',
      computed_trigger_price: 1400,
      rule_name: 'Fixed stop loss at ₹1,400.00',
    });
    expect(errors).to.deep.equal([]);
  });

  it('keeps the 4-step wizard one click away', async () => {
    const { page } = suite;
    await page.getByRole('button', { name: 'New Rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New rule' });
    await dialog.getByRole('button', { name: 'Step by step…' }).click();
    const wizard = page.getByRole('dialog', { name: 'Create Position Rule' });
    await wizard.getByLabel('Rule name').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await wizard.waitFor({ state: 'detached' });
  });

  it('fits a phone without a sideways scroll', async () => {
    const { browser, app, user } = suite;
    const phone = await openSignedIn(browser, app, user, '/holdings', PHONE);
    const errors = pageErrors(phone);
    await phone.getByRole('button', { name: 'New Rule' }).click();
    const dialog = phone.getByRole('dialog', { name: 'New rule' });
    await dialog.getByLabel('Holding').selectOption('NSE:PXWIZ');
    await dialog.getByLabel('Rule', { exact: true }).selectOption('TAKE_PROFIT');
    await dialog.getByLabel('Trigger price').fill('900');
    await dialog.getByText(/Alert when the price rises to\s*₹900\.00/).waitFor();
    await assertNoHorizontalScroll(phone);
    await docsScreenshot(phone, 'rules-new-rule-375.png');
    expect(errors).to.deep.equal([]);
  });
});
