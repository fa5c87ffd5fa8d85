/**
 * ATR stops in the one-screen New Rule and in Edit (docs/exit-rules.md "ATR stops and the
 * backtest") in Chromium against the real app: choosing "ATR (volatility)" puts the default
 * multiple 3 and the period 22 in the form; a period typed there is what the preview says, what
 * the backtest is asked with and what the rule is saved with; Edit sends a changed period. The
 * daily bars are made (a seeded random walk), so ATR(14) and ATR(22) differ. Screenshots at 1280
 * and 375 px.
 */
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import type { ApiBacktest } from '../../common/src/api/backtest.ts';
import type { ApiPositionRule } from '../../common/src/api/rules.ts';
import { backtestSentence } from '../../common/src/history/backtest-words.ts';
import { madeBars } from '../../bench/benchmarks/b14.ts';
import { assertNoHorizontalScroll, PHONE } from '../helpers/browser.ts';
import { apiClient } from '../helpers/http.ts';
import { storeMadeBars, type MadeBar } from '../helpers/made-bars.ts';
import { addHolding, createRule, publishPrices } from '../server/rules/support.ts';
import { docsScreenshot, openSignedIn, pageErrors, signedInSuite } from './support.ts';

/** A little over 3 years of weekdays of a seeded random walk, so "Over 3 years" holds. */
const barsOf = (seed: number): MadeBar[] =>
  madeBars(800, seed).map((b): MadeBar => [b.open, b.high, b.low, b.close]);
const INFY = barsOf(33);
const TCS = barsOf(7);
const lastClose = (bars: MadeBar[]) => Math.round(bars[bars.length - 1]![3] * 100) / 100;

/** Whether a select's chosen option is shown whole (not cut off at its right edge). */
function shownWhole(select: Locator): Promise<boolean> {
  return select.evaluate((element: HTMLSelectElement) => {
    const style = getComputedStyle(element);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = style.font;
    const text = context.measureText(element.selectedOptions[0]!.text).width;
    // Chromium draws the select's arrow inside its padding box, about 1.25em wide.
    const arrow = 1.25 * parseFloat(style.fontSize);
    const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - arrow;
    return text <= room;
  });
}

describe('e2e: the ATR period in New Rule and in Edit', function () {
  this.timeout(120_000);
  const suite = signedInSuite({
    name: 'Meera Iyer',
    embeddedStreamer: false,
    // Its own database: the daily bars here are made, not another file's.
    ownDatabase: true,
    async seed(app, user) {
      await storeMadeBars(app.runtime.deps.db, 'INFY', INFY);
      await storeMadeBars(app.runtime.deps.db, 'TCS', TCS);
      await publishPrices(app, { INFY: lastClose(INFY), TCS: lastClose(TCS) });
      await addHolding(app, user, 'INFY', 25, 1200);
      await addHolding(app, user, 'TCS', 5, 3000);
      const res = await createRule(app, user, {
        symbol: 'TCS',
        trigger_type: 'TRAILING_STOP_LOSS',
        value_type: 'ATR',
        trigger_value: 3,
        atr_period: 22,
      });
      if (res.status !== 201) throw new Error(`ATR rule on TCS: ${res.body.error}`);
    },
    path: '/holdings',
  });

  /** The 3-year backtest line of a 3 × ATR(`period`) trailing stop on INFY, from the route. */
  async function atrLine(period: number): Promise<string> {
    const res = await apiClient(suite.app.url).post<ApiBacktest>(
      '/api/position-rules/backtest',
      {
        symbol: 'INFY',
        years: 3,
        trigger_type: 'TRAILING_STOP_LOSS',
        value_type: 'ATR',
        trigger_value: 3,
        atr_period: period,
      },
      suite.user.token,
    );
    expect(res.status, res.body.error).to.equal(200);
    return backtestSentence(res.body.data!, { years: 3, stop: true });
  }

  async function rulesOf(symbol: string): Promise<ApiPositionRule[]> {
    const res = await apiClient(suite.app.url).get<ApiPositionRule[]>(
      '/api/position-rules',
      suite.user.token,
    );
    return res.body.data!.filter((rule) => rule.symbol === symbol);
  }

  /** New Rule on INFY as a trailing stop in percent. */
  async function newTrailingStop(page: Page) {
    await page.getByRole('button', { name: 'New Rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New rule' });
    await dialog.getByLabel('Holding').selectOption('NSE:INFY');
    await dialog.getByLabel('Rule', { exact: true }).selectOption('TRAILING_STOP_LOSS');
    expect(await dialog.getByLabel('Unit').inputValue()).to.equal('PERCENT');
    return dialog;
  }

  it('puts 3 × ATR(22) in New Rule, backtests and saves the period typed', async () => {
    const { page, errors } = suite;
    // The percent stop's backtest is asked without a period; the ATR stop's with the one typed.
    const asked: Array<Record<string, unknown>> = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/position-rules/backtest')) asked.push(request.postDataJSON());
    });
    const dialog = await newTrailingStop(page);
    const panel = dialog.getByRole('region', { name: 'What this rule would have done' });
    await dialog.getByLabel('Trigger value').fill('8');
    await panel.getByText(/^Over 3 years: /).waitFor();
    await dialog.getByLabel('Unit').selectOption({ label: 'ATR (volatility)' });
    expect(await dialog.getByLabel('Multiple of ATR').inputValue(), 'the default multiple').to.equal('3');
    const period = dialog.getByLabel('ATR over (days)');
    expect(await period.inputValue()).to.equal('22');
    await dialog.getByText('3 × ATR(22) below the highest close since you set it.').waitFor();

    const [line22, line14] = [await atrLine(22), await atrLine(14)];
    expect(line14, 'the made bars tell ATR(14) from ATR(22)').not.to.equal(line22);
    await panel.getByText(line22, { exact: true }).waitFor();
    await period.fill('14');
    await dialog
      .getByText(
        "3 × ATR(14) below the highest close since you set it. The level is set from the stock's daily history (its ATR) when you save the rule.",
      )
      .waitFor();
    await panel.getByText(line14, { exact: true }).waitFor();
    expect(asked.filter((body) => body.value_type === 'PERCENT')).to.have.length.above(0);
    for (const body of asked) {
      if (body.value_type === 'PERCENT') expect(body).not.to.have.property('atr_period');
    }
    expect(asked.at(-1)).to.deep.include({ value_type: 'ATR', trigger_value: 3, atr_period: 14 });
    await docsScreenshot(page, 'rules-atr-new-rule-1280.png');

    await dialog.getByRole('button', { name: 'Create rule' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Rule created: INFY, Trailing stop loss 3 × ATR.').waitFor();
    const [rule] = await rulesOf('INFY');
    expect(rule).to.deep.include({
      trigger_type: 'TRAILING_STOP_LOSS',
      value_type: 'ATR',
      trigger_value: 3,
      atr_period: 14,
    });
    expect(rule!.level_reason).to.match(/^3 × ATR\(14\) = ₹/);
    expect(errors).to.deep.equal([]);
  });

  it("backtests the wizard's ATR stop with the period typed, not 22", async () => {
    const { page, errors } = suite;
    await page.getByRole('button', { name: 'New Rule' }).click();
    await page
      .getByRole('dialog', { name: 'New rule' })
      .getByRole('button', { name: 'Step by step…' })
      .click();
    const wizard = page.getByRole('dialog', { name: 'Create Position Rule' });
    await wizard.getByLabel('Rule name').fill('INFY volatility stop');
    await wizard.getByLabel('Holding').selectOption('NSE:INFY');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('radio', { name: /Trailing stop loss/ }).check();
    await wizard.getByLabel('Unit').selectOption({ label: 'ATR (volatility)' });
    expect(await wizard.getByLabel('Multiple of ATR').inputValue()).to.equal('3');
    await wizard.getByLabel('ATR over (days)').fill('14');
    const panel = wizard.getByRole('region', { name: 'What this rule would have done' });
    await panel.getByText(await atrLine(14), { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await wizard.waitFor({ state: 'detached' });
    expect(errors).to.deep.equal([]);
  });

  it('refuses a period outside 5 to 100 days in New Rule', async () => {
    const { page } = suite;
    const dialog = await newTrailingStop(page);
    await dialog.getByLabel('Unit').selectOption({ label: 'ATR (volatility)' });
    await dialog.getByLabel('ATR over (days)').fill('3');
    await dialog.getByRole('button', { name: 'Create rule' }).click();
    await dialog
      .getByText('An ATR stop takes a multiple from 0.5 to 10 and a period from 5 to 100 days')
      .waitFor();
    expect(await rulesOf('INFY')).to.have.length(1);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it("changes an ATR rule's period from 22 to 14 in Edit", async () => {
    const { page, errors } = suite;
    await page.getByRole('button', { name: 'Manage Rules' }).click();
    const dialog = page.getByRole('dialog', { name: 'Manage Position Rules' });
    const row = dialog.locator('.manage-row', { hasText: 'TCS' });
    await row.getByRole('button', { name: 'Edit TCS: Trailing stop loss 3 × ATR' }).click();
    const period = row.getByLabel('ATR over (days)');
    expect(await period.inputValue()).to.equal('22');
    await period.fill('14');
    await row.getByText('3 × ATR(14) below the highest close since you set it.').waitFor();
    await row.getByRole('button', { name: 'Save changes' }).click();
    await row.getByRole('button', { name: 'Edit TCS: Trailing stop loss 3 × ATR' }).waitFor();
    const [rule] = await rulesOf('TCS');
    expect(rule).to.deep.include({ value_type: 'ATR', trigger_value: 3, atr_period: 14 });
    expect(rule!.level_reason).to.match(/^3 × ATR\(14\) = ₹/);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(errors).to.deep.equal([]);
  });

  it('fits the ATR fields of New Rule on a phone without a sideways scroll', async () => {
    const { browser, app, user } = suite;
    const phone = await openSignedIn(browser, app, user, '/holdings', PHONE);
    const errors = pageErrors(phone);
    const dialog = await newTrailingStop(phone);
    await dialog.getByLabel('Unit').selectOption({ label: 'ATR (volatility)' });
    await dialog.getByLabel('ATR over (days)').fill('14');
    await dialog.getByText('3 × ATR(14) below the highest close since you set it.').waitFor();
    await assertNoHorizontalScroll(phone);
    expect(await shownWhole(dialog.getByLabel('Unit')), '"ATR (volatility)" is not cut off').to.equal(true);
    await docsScreenshot(phone, 'rules-atr-new-rule-375.png');
    expect(errors).to.deep.equal([]);
  });
});
