/**
 * Live prices in the browser: two tabs of one user (two pages of one browser context) follow
 * the simulated market within a second of each batch's publish (measured from the batch's `at`
 * to each tab's DOM change), with the changed cell highlighted and the Portfolio Summary
 * following; edits reach the other tab; the Holdings page fits a phone without sideways
 * scrolling.
 */
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { readShared } from '../helpers/shared-data.ts';
import type { TestApp } from '../helpers/app.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { assertNoHorizontalScroll, PHONE, screenshot } from '../helpers/browser.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { addHolding } from '../server/rules/support.ts';
import {
  editInline,
  holdingCard,
  holdingRow,
  openManualEntry,
  pageErrors,
  signedInContext,
  uploadHoldings,
  showValues,
} from './support.ts';

const LTP = 'tr.holding-row[data-symbol="RELIANCE"] [data-col="ltp"] [data-live-value]';

/** The LTP cell's current number. */
function ltpOf(page: Page): Promise<string> {
  return page
    .locator(LTP)
    .getAttribute('data-live-value')
    .then((v) => v ?? '');
}

/** Resolves with the time the LTP cell moved away from `from`. */
async function nextLtpChange(page: Page, from: string): Promise<number> {
  await page.waitForFunction(
    ([selector, before]) => {
      const value = document.querySelector(selector!)?.getAttribute('data-live-value');
      return Boolean(value) && value !== before;
    },
    [LTP, from] as const,
    { timeout: 10_000, polling: 20 },
  );
  return Date.now();
}

/** A RELIANCE price as a batch published it. */
interface PublishedPrice {
  at: number;
  ltp: number;
}

interface LtpChange {
  value: number;
  previous: number;
  className: string;
  /** Epoch ms when the cell showed it. */
  at: number;
}

interface LiveLog {
  ltpChanges: LtpChange[];
}

/** Logs, in the page, each new number of the RELIANCE LTP cell with its class and the time. */
async function recordLtpChanges(page: Page): Promise<void> {
  await page.evaluate((selector) => {
    const log: LtpChange[] = [];
    (window as unknown as LiveLog).ltpChanges = log;
    const cell = document.querySelector(selector)!.closest('[data-col="ltp"]')!;
    let last = cell.querySelector('[data-live-value]')!.getAttribute('data-live-value');
    new MutationObserver(() => {
      const span = cell.querySelector('[data-live-value]');
      const value = span?.getAttribute('data-live-value');
      if (!span || !value || value === last) return;
      log.push({ value: Number(value), previous: Number(last), className: span.className, at: Date.now() });
      last = value;
    }).observe(cell, { subtree: true, childList: true, attributes: true });
  }, LTP);
}

describe('e2e: live prices across tabs', function () {
  this.timeout(90_000);
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let user: SignedInUser;
  let tabs: Page[];
  let errors: string[][];

  /** Every RELIANCE price published since boot: a batch in flight when a test starts still counts. */
  const batches: PublishedPrice[] = [];
  let stopRecordingBatches: () => void = () => undefined;

  before(async () => {
    ({ app, browser } = await startBrowserSuite({ env: { QUOTE_INTERVAL_MS: '300' } }));
    stopRecordingBatches = app.runtime.bus.onBatch((batch) => {
      const quote = batch.quotes.find((q) => q.symbol === 'RELIANCE' && q.exchange === 'NSE');
      if (quote) batches.push({ at: batch.at, ltp: quote.ltp });
    });
    user = await signIn(app, { name: 'Ravi Iyer' });
    await addHolding(app, user, 'RELIANCE', 40, 1320.5);
    await addHolding(app, user, 'TCS', 12, 3410);
    await addHolding(app, user, 'INFY', 30, 1495.25);
    context = await signedInContext(browser, app, user);
    tabs = [await context.newPage(), await context.newPage()];
    errors = tabs.map(pageErrors);
    for (const tab of tabs) await tab.goto(`${app.url}/holdings`);
  });

  after(async () => {
    await stopBrowserSuite({ app, browser });
  });

  it("shows 'Simulated prices' in the header of both tabs (the demo market, never 'Live')", async () => {
    for (const tab of tabs) {
      await tab.locator('.live-indicator[data-tone="simulated"]').waitFor({ timeout: 10_000 });
      expect(await tab.locator('.live-label').innerText()).to.equal('Simulated prices');
    }
  });

  it('moves the LTP of both tabs within a second of the batch, with the up or down highlight', async () => {
    for (const tab of tabs)
      await tab.waitForFunction(
        (s) => Boolean(document.querySelector(s)?.getAttribute('data-live-value')),
        LTP,
      );
    try {
      for (const tab of tabs) await recordLtpChanges(tab);
      for (const tab of tabs) {
        await tab.waitForFunction(() => (window as unknown as LiveLog).ltpChanges.length > 0, undefined, {
          timeout: 10_000,
        });
      }
      for (const [i, tab] of tabs.entries()) {
        const [change] = await tab.evaluate(() => (window as unknown as LiveLog).ltpChanges);
        // The batch that carried this price: the latest one published before the cell moved.
        const batch = batches.filter((b) => b.ltp === change!.value && b.at <= change!.at).at(-1);
        expect(batch, `tab ${i + 1}: a published batch carried ₹${change!.value}`).to.not.equal(undefined);
        expect(change!.at - batch!.at, `tab ${i + 1}: ms from the batch's publish to the cell`).to.be.below(
          1000,
        );
        expect(change!.className).to.equal(`flash flash-${change!.value > change!.previous ? 'up' : 'down'}`);
      }
    } finally {
      stopRecordingBatches();
    }
    // The P&L follows the new price: quantity × (LTP − buy price). Amounts show once the eye
    // toggle shows them (they stay shown for the next test).
    const tab = tabs[0]!;
    await showValues(tab);
    const { ltp, pnl } = await tab.evaluate(() => {
      const row = document.querySelector('tr.holding-row[data-symbol="RELIANCE"]')!;
      return {
        ltp: Number(row.querySelector('[data-col="ltp"] [data-live-value]')!.getAttribute('data-live-value')),
        pnl: Number(row.querySelector('[data-col="pnl"] [data-live-value]')!.getAttribute('data-live-value')),
      };
    });
    expect(pnl).to.be.closeTo(40 * (ltp - 1320.5), 0.01);
  });

  it("updates the Portfolio Summary's current value and day change after a batch", async () => {
    const tab = tabs[0]!;
    const value = '[data-stat="Current Value"] [data-live-value]';
    const day = '[data-stat="Day change"] [data-live-value]';
    await tab.locator(`${day}[data-live-value]:not([data-live-value=""])`).waitFor();
    const before = await tab.evaluate(
      ([v, d]) => [v, d].map((s) => document.querySelector(s!)!.getAttribute('data-live-value')),
      [value, day],
    );
    await tab.waitForFunction(
      ([v, d, was]) =>
        [v, d].every((s, i) => {
          const now = document.querySelector(s!)?.getAttribute('data-live-value');
          return Boolean(now) && now !== (was as string[])[i];
        }),
      [value, day, before] as const,
      { timeout: 10_000 },
    );
    // Between batches the summary is the sum of the rows at their LTPs.
    await tab.waitForFunction(
      ([v, quantities]) => {
        let expected = 0;
        for (const [symbol, qty] of Object.entries(quantities as Record<string, number>)) {
          const cell = document.querySelector(
            `tr.holding-row[data-symbol="${symbol}"] [data-col="ltp"] [data-live-value]`,
          );
          expected += qty * Number(cell?.getAttribute('data-live-value'));
        }
        const shown = Number(document.querySelector(v as string)?.getAttribute('data-live-value'));
        return Math.abs(shown - expected) < 0.01;
      },
      [value, { RELIANCE: 40, TCS: 12, INFY: 30 }] as const,
      { timeout: 10_000 },
    );
    expect(await tab.locator('[data-stat="Current Value"]').innerText()).to.match(/^₹[\d,]+\.\d{2}$/);
    await tab.getByRole('button', { name: 'Hide values' }).click();
  });

  it('changes a quantity edited in one tab in the other tab without a reload', async () => {
    const [editor, watcher] = tabs as [Page, Page];
    const row = holdingRow(editor, 'TCS');
    const input = await editInline(row, 'TCS', 'quantity');
    await input.fill('18');
    await input.press('Enter');
    await row.locator('[data-col="qty"]').getByText('18', { exact: true }).waitFor();
    await holdingRow(watcher, 'TCS')
      .locator('[data-col="qty"]')
      .getByText('18', { exact: true })
      .waitFor({ timeout: 5_000 });
    expect(errors.flat()).to.deep.equal([]);
  });

  it('reconnects with a renewed session after the server drops the sockets, then catches up', async () => {
    const [tab] = tabs as [Page, Page];
    const tokenBefore = await tab.evaluate(() => localStorage.getItem('auth_token'));
    app.runtime.io.disconnectSockets(true);
    // Made while the tabs are offline: its holdings:changed push is lost, the re-fetch finds it.
    await addHolding(app, user, 'ITC', 50, 405);
    for (const page of tabs) {
      await holdingRow(page, 'ITC').waitFor({ timeout: 10_000 });
      await page.locator('.live-indicator[data-tone="simulated"]').waitFor({ timeout: 10_000 });
    }
    expect(await tab.evaluate(() => localStorage.getItem('auth_token'))).to.not.equal(tokenBefore);
    const before = await ltpOf(tab);
    await nextLtpChange(tab, before);
  });

  it('screenshots the Holdings page with live prices and a price chart', async () => {
    await uploadHoldings(app, user, {
      // IDEA is left out: the simulated market prices symbols it does not know at random levels.
      csvData: readShared('fixtures/brokers/zerodha_kite_holdings.csv')
        .split('\n')
        .filter((line) => !line.includes('IDEA'))
        .join('\n'),
      broker_name: 'Zerodha · AB1234',
    });
    const tab = tabs[0]!;
    await tab.setViewportSize({ width: 1280, height: 900 });
    await holdingRow(tab, 'NIFTYBEES').locator('[data-col="ltp"] [data-live-value]').waitFor();
    await holdingRow(tab, 'RELIANCE').locator('.expand-button').click();
    await tab.locator('.price-chart').waitFor();
    await showValues(tab);
    await tab.waitForTimeout(6000);
    // At 1280 px the whole table fits its card: no scrolling sideways inside it.
    const table = await tab
      .locator('.holdings-table-wrap')
      .evaluate((el) => [el.scrollWidth, el.clientWidth]);
    expect(table[0]).to.be.at.most(table[1]!);
    await screenshot(tab, 'holdings-live-desktop-1280');
  });

  it('fits the Holdings page into a 375 px wide phone, and into 360 px', async () => {
    const phoneContext = await signedInContext(browser, app, user, PHONE);
    const phone = await phoneContext.newPage();
    await phone.goto(`${app.url}/holdings`);
    await phone.locator('li.holding-card').nth(2).waitFor();
    await holdingCard(phone, 'RELIANCE').locator('.expand-button').click();
    await phone.locator('.holding-details').waitFor();
    await assertNoHorizontalScroll(phone);
    await phone.setViewportSize({ width: 360, height: 740 });
    await assertNoHorizontalScroll(phone);
    await phone.setViewportSize({ width: 768, height: 900 });
    await phone.locator('table.holdings-table').waitFor();
    await assertNoHorizontalScroll(phone);
    await phone.setViewportSize({ width: 360, height: 740 });
    await openManualEntry(phone);
    await assertNoHorizontalScroll(phone);
    await phone.goto(`${app.url}/dashboard`);
    await phone.getByRole('heading', { name: 'Allocation' }).waitFor();
    await assertNoHorizontalScroll(phone);
    await screenshot(phone, 'dashboard-phone-360');
    await phoneContext.close();
  });
});
