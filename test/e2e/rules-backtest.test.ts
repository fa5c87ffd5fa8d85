/**
 * Issue #33 item 5 in Chromium against the real app: the New Rule dialog shows what the rule
 * would have done on the holding's stored daily prices (one line, a chart, 1y/3y/5y), refreshed
 * as the level changes; a holding without history says so. Screenshots at 1280 and 375 px.
 */
import { expect } from 'chai';
import type { ApiBacktest } from '../../common/src/api/backtest.ts';
import { backtestSentence } from '../../common/src/history/backtest-words.ts';
import { madeBars } from '../../bench/benchmarks/b14.ts';
import { assertNoHorizontalScroll, PHONE } from '../helpers/browser.ts';
import { apiClient } from '../helpers/http.ts';
import { storeMadeBars } from '../helpers/made-bars.ts';
import { addHolding, publishPrices } from '../server/rules/support.ts';
import { docsScreenshot, openSignedIn, pageErrors, signedInSuite } from './support.ts';

/** A little over 3 years of weekdays of a seeded random walk, so "Over 3 years" holds. */
const BARS = madeBars(800, 33).map((b) => [b.open, b.high, b.low, b.close] as const);
const LAST_CLOSE = Math.round(BARS[BARS.length - 1]![3] * 100) / 100;

describe('e2e: what a rule would have done, in the rule dialogs', function () {
  this.timeout(120_000);
  const suite = signedInSuite({
    name: 'Kavya Rao',
    embeddedStreamer: false,
    // Its own database: the daily bars of INFY here are made, not another file's.
    ownDatabase: true,
    async seed(app, user) {
      await storeMadeBars(
        app.runtime.deps.db,
        'INFY',
        BARS.map((b) => [...b]),
      );
      await publishPrices(app, { INFY: LAST_CLOSE, TCS: 3400 });
      await addHolding(app, user, 'INFY', 25, 1200);
      await addHolding(app, user, 'TCS', 5, 3000);
    },
    path: '/holdings',
  });

  /** The line the dialog should show, from the route's own answer. */
  async function expectedLine(years: 1 | 3 | 5, triggerValue: number): Promise<string> {
    const res = await apiClient(suite.app.url).post<ApiBacktest>(
      '/api/position-rules/backtest',
      {
        symbol: 'INFY',
        years,
        trigger_type: 'TRAILING_STOP_LOSS',
        value_type: 'PERCENT',
        trigger_value: triggerValue,
      },
      suite.user.token,
    );
    expect(res.status, res.body.error).to.equal(200);
    return backtestSentence(res.body.data!, { years, stop: true });
  }

  it('shows the line and the chart for a holding with history, refreshed as the level changes', async () => {
    const { page, errors } = suite;
    await page.getByRole('button', { name: 'New Rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New rule' });
    await dialog.getByLabel('Holding').selectOption('NSE:INFY');
    await dialog.getByLabel('Rule', { exact: true }).selectOption('TRAILING_STOP_LOSS');
    await dialog.getByLabel('Unit').selectOption('PERCENT');
    const panel = dialog.getByRole('region', { name: 'What this rule would have done' });
    await panel.getByText('Type a level to see how this rule would have done.').waitFor();

    await dialog.getByLabel('Trigger value').fill('8');
    const threeYears = await expectedLine(3, 8);
    expect(threeYears).to.match(/^Over 3 years: fired (once|\d+ times), \d+ whipsaws?; the stop's result /);
    await panel.getByText(threeYears, { exact: true }).waitFor();
    await panel
      .getByRole('img', { name: /^INFY daily closes from .* with the rule's level and \d+ exits?$/ })
      .waitFor();
    await dialog.getByLabel('Trigger value').fill('15');
    await panel.getByText(await expectedLine(3, 15), { exact: true }).waitFor();
    await panel.getByRole('button', { name: '1y' }).click();
    const oneYear = await expectedLine(1, 15);
    expect(oneYear).to.match(/^Over 1 year: /);
    await panel.getByText(oneYear, { exact: true }).waitFor();
    await panel.getByRole('button', { name: '3y' }).click();
    await dialog.getByLabel('Trigger value').fill('8');
    await panel.getByText(await expectedLine(3, 8), { exact: true }).waitFor();
    await panel.locator('.recharts-line').first().waitFor();
    await docsScreenshot(page, 'backtest-1280.png');

    await dialog.getByLabel('Holding').selectOption('NSE:TCS');
    await dialog.getByLabel('Rule', { exact: true }).selectOption('TRAILING_STOP_LOSS');
    await dialog.getByLabel('Unit').selectOption('PERCENT');
    await dialog.getByLabel('Trigger value').fill('8');
    await panel
      .getByText(
        'No price history for TCS yet. The backtest appears once the exchange’s daily prices for TCS are loaded.',
      )
      .waitFor();
    expect(await panel.getByRole('img').count()).to.equal(0);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(errors).to.deep.equal([]);
  });

  it('fits a phone without a sideways scroll', async () => {
    const { browser, app, user } = suite;
    const phone = await openSignedIn(browser, app, user, '/holdings', PHONE);
    const errors = pageErrors(phone);
    await phone.getByRole('button', { name: 'New Rule' }).click();
    const dialog = phone.getByRole('dialog', { name: 'New rule' });
    await dialog.getByLabel('Holding').selectOption('NSE:INFY');
    await dialog.getByLabel('Rule', { exact: true }).selectOption('TRAILING_STOP_LOSS');
    await dialog.getByLabel('Unit').selectOption('PERCENT');
    await dialog.getByLabel('Trigger value').fill('8');
    const panel = dialog.getByRole('region', { name: 'What this rule would have done' });
    await panel.getByText(await expectedLine(3, 8), { exact: true }).waitFor();
    await panel.locator('.recharts-line').first().waitFor();
    await panel.scrollIntoViewIfNeeded();
    await assertNoHorizontalScroll(phone);
    await docsScreenshot(phone, 'backtest-375.png');
    expect(errors).to.deep.equal([]);
  });
});
