/**
 * Issue #28 items 6 and 7 in Chromium against the real app: a stop at a price is the first unit
 * of the row's rule editor and of the wizard, a range in a refusal is money, and the saved rule
 * says its price; enabling a fired fixed stop whose level is above the price asks before moving
 * it; ticking "Re-arm after the price recovers" on a Triggered rule keeps it Triggered and says
 * where it re-arms. Screenshots at 1280 and 375 px.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { assertNoHorizontalScroll, DESKTOP, PHONE, screenshot, type Viewport } from '../helpers/browser.ts';
import { addHolding, createRule, publishPrices } from '../server/rules/support.ts';
import {
  docsScreenshot,
  holdingCard,
  holdingRow,
  openSignedIn,
  pageErrors,
  showUnderHeader,
  signedInSuite,
} from './support.ts';

describe('e2e: rules that mean what the user typed', function () {
  this.timeout(120_000);
  const suite = signedInSuite({
    name: 'Kavya Rao',
    // Prices come only from the test, so the levels are the same every run.
    embeddedStreamer: false,
    async seed(app, user) {
      await publishPrices(app, { PXKITE: 1469.75, PXSHOT: 1469.75, ENSTOP: 301.59, ENWAIT: 1000 });
      await addHolding(app, user, 'PXKITE', 40, 1300);
      await addHolding(app, user, 'PXSHOT', 40, 1300);
      await addHolding(app, user, 'ENSTOP', 100, 280);
      await addHolding(app, user, 'ENWAIT', 10, 900);
      for (const symbol of ['ENSTOP', 'ENWAIT']) {
        const res = await createRule(app, user, {
          symbol,
          trigger_type: 'FIXED_STOP_LOSS',
          trigger_value: 5,
        });
        if (res.status !== 201) throw new Error(`rule on ${symbol}: ${res.body.error}`);
      }
      // Both stops fire: ENSTOP at ₹286.51, ENWAIT at ₹950.00.
      await publishPrices(app, { ENSTOP: 286, ENWAIT: 949 });
    },
    path: '/holdings',
  });

  /** The row's (or, on a phone, the card's) rule editor of `symbol`, opened from '+ Add'. */
  async function openDraft(page: Page, symbol: string, phone = false) {
    const holding = phone ? holdingCard(page, symbol) : holdingRow(page, symbol);
    await holding.getByRole('button', { name: `Add a rule for ${symbol}` }).click();
    const form = page.getByRole('form', { name: `New rule for ${symbol} (NSE)` });
    await form.waitFor();
    return form;
  }

  it('offers the price first in the row editor, refuses a range in rupees, and saves a stop at ₹1,400', async () => {
    const { page, errors } = suite;
    const form = await openDraft(page, 'PXKITE');
    const unit = form.getByLabel('Unit');
    expect(await unit.locator('option').allInnerTexts()).to.deep.equal(['At ₹', '%', '₹ away', '× ATR']);
    expect(
      await unit.locator('option[value="PRICE"]').isDisabled(),
      'a trailing stop is not a price',
    ).to.equal(true);
    await form.getByLabel('Rule', { exact: true }).selectOption('FIXED_STOP_LOSS');
    await unit.selectOption('PRICE');
    const price = form.getByLabel('Trigger price');
    await price.fill('100');
    await form
      .getByText(
        'Rule is not allowed for this price. Trigger price must be between ₹146.98 and ₹2,939.50 based on current price',
      )
      .waitFor();
    await price.fill('1400');
    await form.getByText('Alert when the price falls to ₹1,400.00').waitFor();
    await showUnderHeader(form);
    await screenshot(page, 'rules-price-draft-1280');
    // Back to a trailing stop: the unit falls back to percent.
    await form.getByLabel('Rule', { exact: true }).selectOption('TRAILING_STOP_LOSS');
    expect(await unit.inputValue()).to.equal('PERCENT');
    await form.getByLabel('Rule', { exact: true }).selectOption('FIXED_STOP_LOSS');
    await unit.selectOption('PRICE');
    await form.getByLabel('Trigger price').fill('1400');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    const rules = page.getByRole('group', { name: 'Rules for PXKITE (NSE)' });
    await rules.getByText('Fixed stop loss at ₹1,400.00').waitFor();
    await rules.locator('.rule-trigger', { hasText: '₹1,400.00' }).waitFor();
    expect(errors).to.deep.equal([]);
  });

  it('offers the price first in the wizard', async () => {
    const { page } = suite;
    await page.getByRole('button', { name: 'Create Rule' }).click();
    const wizard = page.getByRole('dialog', { name: 'Create Position Rule' });
    await wizard.getByLabel('Rule name').fill('PXKITE target');
    await wizard.getByLabel('Holding').selectOption('NSE:PXKITE');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('radio', { name: /Take profit/ }).check();
    const unit = wizard.getByLabel('Unit');
    expect((await unit.locator('option').allInnerTexts())[0]).to.equal('Price (₹)');
    await unit.selectOption('PRICE');
    await wizard.getByLabel('Trigger price').fill('1600');
    await wizard.getByText('Alert at ₹1,600.00').waitFor();
    await page.keyboard.press('Escape');
    await wizard.waitFor({ state: 'detached' });
  });

  it('asks before enabling a fired fixed stop whose level is above the price, and moves it only on yes', async () => {
    const { page } = suite;
    await page.getByRole('button', { name: 'Manage Rules' }).click();
    const dialog = page.getByRole('dialog', { name: 'Manage Position Rules' });
    const row = dialog.locator('.manage-row', { hasText: 'ENSTOP' });
    await row.getByText('Triggered', { exact: true }).waitFor();
    // Its generated name says what it does: shown once, not again as its description.
    expect((await row.locator('.manage-row-text').innerText()).match(/Fixed stop loss 5%/g)).to.have.length(
      1,
    );
    await row.getByRole('button', { name: 'Enable ENSTOP: Fixed stop loss 5%' }).click();
    const ask = page.getByRole('dialog', { name: 'Enable this rule?' });
    await ask
      .getByText(
        'ENSTOP: The stop loss level ₹286.51 is at or above the current price ₹286.00; it would fire at once. Enable it at ₹271.70 instead, 5% below the current price?',
      )
      .waitFor();
    await screenshot(page, 'rules-enable-question-1280');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    await row.getByText('Triggered', { exact: true }).waitFor();
    expect(await row.innerText(), 'Cancel changes nothing').to.contain('trigger ₹286.51');

    await row.getByRole('button', { name: 'Enable ENSTOP: Fixed stop loss 5%' }).click();
    await ask.getByRole('button', { name: 'Enable at ₹271.70' }).click();
    await ask.waitFor({ state: 'detached' });
    await row.getByText('Active', { exact: true }).waitFor();
    await row.getByText(/trigger ₹271\.70/).waitFor();
  });

  it('ticking re-arm on a Triggered rule keeps it Triggered and says where it re-arms', async () => {
    const { page } = suite;
    const dialog = page.getByRole('dialog', { name: 'Manage Position Rules' });
    const row = dialog.locator('.manage-row', { hasText: 'ENWAIT' });
    await row.getByRole('button', { name: 'Edit ENWAIT: Fixed stop loss 5%' }).click();
    await row.getByLabel('Re-arm after the price recovers').check();
    await row.getByText('It is armed again once the price is back at ₹978.50.').waitFor();
    await row.getByRole('button', { name: 'Save changes' }).click();
    await row.getByRole('button', { name: 'Edit ENWAIT: Fixed stop loss 5%' }).waitFor();
    await row.getByText('Triggered', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    const rules = page.getByRole('group', { name: 'Rules for ENWAIT (NSE)' });
    await holdingRow(page, 'ENWAIT').locator('button[aria-expanded="false"]').first().click();
    await rules.getByText('Re-arms at ₹978.50').waitFor();
    await rules.locator('.rule-status', { hasText: 'Triggered' }).waitFor();
  });

  for (const [viewport, width] of [
    [DESKTOP, '1280'],
    [PHONE, '375'],
  ] as Array<[Viewport, string]>) {
    it(`shows the price editor without a sideways scroll at ${width} px`, async () => {
      const { browser, app, user } = suite;
      const page = await openSignedIn(browser, app, user, '/holdings', viewport);
      const errors = pageErrors(page);
      const form = await openDraft(page, 'PXSHOT', viewport === PHONE);
      await form.getByLabel('Rule', { exact: true }).selectOption('TAKE_PROFIT');
      await form.getByLabel('Unit').selectOption('PRICE');
      await form.getByLabel('Trigger price').fill('1600');
      await form.getByText('Alert when the price rises to ₹1,600.00').waitFor();
      await assertNoHorizontalScroll(page);
      await showUnderHeader(form);
      await docsScreenshot(page, `rules-price-editor-${width}.png`);
      expect(errors).to.deep.equal([]);
    });
  }
});
