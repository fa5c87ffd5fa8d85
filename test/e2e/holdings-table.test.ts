/**
 * The holdings table of issue 28, item 15: the exchange beside each symbol (TCS on NSE and on
 * BSE are two rows a user can tell apart), sorting by LTP, day change and current value, the
 * holdings themselves on the screen at 1280×800 on arrival, without scrolling (Comfortable: at
 * least 8; Compact: at least 20), and the eye toggle remembered on this device (hidden on a first
 * visit).
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import path from 'node:path';
import { screenshotDir } from '../helpers/browser.ts';
import { replayFile } from '../helpers/replay.ts';
import { addHolding } from '../server/rules/support.ts';
import { holdingRow, signedInContext, signedInSuite } from './support.ts';

/** Symbol, exchange, quantity, buy price, replayed price, previous close. */
const HOLDINGS: [string, 'NSE' | 'BSE', number, number, number, number][] = [
  ['RELIANCE', 'NSE', 1000, 1418.6, 1492.3, 1478.6],
  ['TCS', 'NSE', 40, 3900, 3402.15, 3380],
  ['TCS', 'BSE', 5, 3800, 3401.9, 3381],
  ['INFY', 'NSE', 10, 1400, 1512.4, 1500],
  ['HDFCBANK', 'NSE', 120, 1610.25, 1985.6, 1990.1],
  ['ICICIBANK', 'NSE', 75, 1050, 1412.8, 1401.35],
  ['SBIN', 'NSE', 150, 680.4, 1021.1, 1025.3],
  ['ITC', 'NSE', 500, 402.3, 412.55, 410],
  ['LT', 'NSE', 18, 3320, 3655.9, 3640.2],
  ['AXISBANK', 'NSE', 60, 1120.5, 1096.45, 1101],
  ['KOTAKBANK', 'NSE', 25, 1790, 2104.7, 2098],
  ['HINDUNILVR', 'NSE', 30, 2510, 2388.05, 2395.4],
  ['BHARTIARTL', 'NSE', 45, 1180, 1890.35, 1872.6],
  ['MARUTI', 'NSE', 4, 11250, 12640, 12580.5],
  ['TITAN', 'NSE', 22, 3410, 3522.75, 3540],
  ['WIPRO', 'NSE', 200, 268.9, 251.3, 249.85],
  ['SUNPHARMA', 'NSE', 35, 1550, 1701.2, 1695],
  ['NTPC', 'NSE', 300, 345.6, 338.15, 341],
  ['ONGC', 'NSE', 250, 262.4, 244.9, 246.1],
  ['TATASTEEL', 'NSE', 400, 148.2, 161.05, 159.9],
  ['ASIANPAINT', 'NSE', 12, 2900, 2455.6, 2470.2],
  ['NESTLEIND', 'NSE', 20, 2380, 2291.4, 2288],
  ['ULTRACEMCO', 'NSE', 3, 10950, 12210.5, 12198],
  // Unchanged today: its price is its previous close.
  ['COALINDIA', 'NSE', 100, 380, 385.5, 385.5],
];

const REPLAY = replayFile(
  HOLDINGS.map(([symbol, exchange, , , price, prevClose]) => ({
    time: 'open',
    symbol,
    exchange,
    price,
    prevClose,
  })),
);

/** The table's rows as `SYMBOL EXCHANGE`, top to bottom. */
function rowsInOrder(page: Page): Promise<string[]> {
  return page
    .locator('tr.holding-row')
    .evaluateAll((rows) =>
      rows.map(
        (row) => `${row.getAttribute('data-symbol')} ${row.querySelector('.holding-exchange')?.textContent}`,
      ),
    );
}

/** The `SYMBOL EXCHANGE` of each row, ordered by a figure (LTP, day change, value) descending. */
function expectedOrder(figure: (h: (typeof HOLDINGS)[number]) => number): string[] {
  return [...HOLDINGS].sort((a, b) => figure(b) - figure(a)).map(([s, e]) => `${s} ${e}`);
}

/** Holding rows wholly on screen below the sticky header. */
function rowsOnScreen(page: Page): Promise<number> {
  return page.locator('tr.holding-row').evaluateAll((rows) => {
    const header = document.querySelector('.site-header')?.getBoundingClientRect().bottom ?? 0;
    return rows.filter((row) => {
      const box = row.getBoundingClientRect();
      return box.top >= header && box.bottom <= window.innerHeight;
    }).length;
  });
}

describe('e2e: the holdings table (issue 28, item 15)', function () {
  this.timeout(120_000);
  const suite = signedInSuite({
    name: 'Kavya Rao',
    replay: { csv: REPLAY, intervalMs: 600_000 },
    async seed(app, user) {
      for (const [symbol, exchange, quantity, price] of HOLDINGS)
        await addHolding(app, user, symbol, quantity, price, exchange);
    },
    viewport: { width: 1280, height: 800 },
    path: '/holdings',
  });

  before(async () => {
    await holdingRow(suite.page, 'INFY').locator('[data-col="ltp"]').getByText('₹1,512.40').waitFor();
  });

  it('names the exchange of each row: TCS on NSE and TCS on BSE are told apart', async () => {
    const tcs = (await rowsInOrder(suite.page)).filter((row) => row.startsWith('TCS '));
    expect(tcs).to.have.members(['TCS NSE', 'TCS BSE']);
    expect(
      await suite.page.locator('tr.holding-row[data-symbol="RELIANCE"] .holding-exchange').innerText(),
    ).to.equal('NSE');
  });

  it('sorts by LTP, day change and current value, highest first on the second click', async () => {
    const { page } = suite;
    await page.getByRole('button', { name: 'Show values' }).click();
    const sortBy = async (name: string) => {
      const heading = page.getByRole('columnheader', { name });
      await heading.getByRole('button').click();
      if ((await heading.getAttribute('aria-sort')) !== 'descending')
        await heading.getByRole('button').click();
      expect(await heading.getAttribute('aria-sort'), name).to.equal('descending');
      return rowsInOrder(page);
    };
    expect(await sortBy('LTP')).to.deep.equal(expectedOrder(([, , , , price]) => price));
    expect(await sortBy('Day change')).to.deep.equal(
      expectedOrder(([, , quantity, , price, prev]) => Math.round(quantity * (price - prev) * 100)),
    );
    expect(await sortBy('Current value')).to.deep.equal(
      expectedOrder(([, , quantity, , price]) => Math.round(quantity * price * 100)),
    );
    await page.getByRole('button', { name: 'Hide values' }).click();
  });

  it('shows at least 8 holdings on arrival at 1280×800 in Comfortable, and 20 in Compact, without scrolling', async () => {
    const { page, app } = suite;
    const counts: Record<string, number> = {};
    for (const density of ['comfortable', 'compact'] as const) {
      await page.evaluate((value) => localStorage.setItem('holdings_density', value), density);
      await page.goto(`${app.url}/holdings`);
      await holdingRow(page, 'INFY').locator('[data-col="ltp"]').getByText('₹1,512.40').waitFor();
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => window.scrollY), 'the page as it arrived, not scrolled').to.equal(0);
      counts[density] = await rowsOnScreen(page);
      // What the user sees on arrival, not the whole page.
      await page.screenshot({
        path: path.join(screenshotDir, `holdings-first-screen-${density}-1280x800.png`),
      });
    }
    expect(counts.comfortable, 'Comfortable').to.be.at.least(8);
    expect(counts.compact, 'Compact').to.be.at.least(20);
    await page.evaluate(() => localStorage.setItem('holdings_density', 'comfortable'));
  });

  it('shows no change in grey and without a sign (issue 28, item 16), a gain in green', async () => {
    const { page, app } = suite;
    await page.goto(`${app.url}/holdings`);
    await page.getByRole('button', { name: 'Show values' }).click();
    const day = (symbol: string) => page.locator(`tr.holding-row[data-symbol="${symbol}"] [data-col="day"]`);
    await day('COALINDIA').getByText('₹0.00').waitFor();
    const look = (symbol: string) =>
      day(symbol)
        .locator('.stacked')
        .evaluate((el) => ({
          text: (el as HTMLElement).innerText.replace(/\s+/g, ' '),
          colour: getComputedStyle(el).color,
        }));
    const muted = await page.evaluate(() =>
      getComputedStyle(document.body).getPropertyValue('--color-text-muted').trim(),
    );
    const flat = await look('COALINDIA');
    expect(flat.text).to.equal('₹0.00 0.00%');
    const gain = await look('ICICIBANK');
    expect(gain.text).to.match(/^\+₹/);
    expect(flat.colour, 'grey, not the green of a gain').to.not.equal(gain.colour);
    const probe = await page.evaluate((colour) => {
      const el = document.createElement('span');
      el.style.color = colour;
      document.body.append(el);
      const rgb = getComputedStyle(el).color;
      el.remove();
      return rgb;
    }, muted);
    expect(flat.colour).to.equal(probe);
    await page.getByRole('button', { name: 'Hide values' }).click();
  });

  it('remembers shown values on this device; hidden on a first visit', async () => {
    const { page, app, browser, user } = suite;
    const amount = page.locator('tr.holding-row[data-symbol="SBIN"] [data-col="pnl"]');
    await page.goto(`${app.url}/holdings`);
    await amount.getByText('****').waitFor();
    await page.getByRole('button', { name: 'Show values' }).click();
    await amount.getByText('₹51,105.00').waitFor();
    await page.reload();
    await amount.getByText('₹51,105.00').waitFor({ timeout: 10_000 });
    expect(await page.getByRole('button', { name: 'Hide values' }).getAttribute('aria-pressed')).to.equal(
      'true',
    );
    await page.getByRole('button', { name: 'Hide values' }).click();
    await page.reload();
    await amount.getByText('****').waitFor();
    // Another device (a fresh browser profile) starts hidden, as docs/holdings.md says.
    const other = await (await signedInContext(browser, app, user)).newPage();
    await page.getByRole('button', { name: 'Show values' }).click();
    await other.goto(`${app.url}/holdings`);
    await other.locator('tr.holding-row[data-symbol="SBIN"] [data-col="pnl"]').getByText('****').waitFor();
  });
});
