/**
 * Issue 17's screens in Chromium against the real app: inline edits saved on blur, the eye
 * toggle hiding the rows' amounts, focus back on the opener when a dialog closes, each upload
 * problem shown once, one market state in every page's header, and the compact density (at
 * least 18 holdings on a 1280×900 screen, a two-line row per holding on a phone), with
 * screenshots of both densities (into docs/ with UPDATE_DOCS_SCREENSHOTS=1).
 */
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { assertNoHorizontalScroll, PHONE } from '../helpers/browser.ts';
import { apiClient } from '../helpers/http.ts';
import { addHolding } from '../server/rules/support.ts';
import {
  chooseFile,
  docsScreenshot,
  editInline,
  holdingCard,
  holdingRow,
  openUploadDialog,
  replayCsv,
  showUnderHeader,
  signedInContext,
  signedInSuite,
  showValues,
} from './support.ts';

/** Symbol, quantity, buy price, replayed price, previous close. */
const HOLDINGS: [string, number, number, number, number][] = [
  ['RELIANCE', 1000, 1418.6, 1492.3, 1478.6],
  ['TCS', 40, 3900, 3402.15, 3380],
  ['INFY', 10, 1400, 1512.4, 1500],
  ['HDFCBANK', 120, 1610.25, 1985.6, 1990.1],
  ['ICICIBANK', 75, 1050, 1412.8, 1401.35],
  ['SBIN', 150, 680.4, 1021.1, 1025.3],
  ['ITC', 500, 402.3, 412.55, 410],
  ['LT', 18, 3320, 3655.9, 3640.2],
  ['AXISBANK', 60, 1120.5, 1096.45, 1101],
  ['KOTAKBANK', 25, 1790, 2104.7, 2098],
  ['HINDUNILVR', 30, 2510, 2388.05, 2395.4],
  ['BHARTIARTL', 45, 1180, 1890.35, 1872.6],
  ['MARUTI', 4, 11250, 12640, 12580.5],
  ['TITAN', 22, 3410, 3522.75, 3540],
  ['WIPRO', 200, 268.9, 251.3, 249.85],
  ['SUNPHARMA', 35, 1550, 1701.2, 1695],
  ['NTPC', 300, 345.6, 338.15, 341],
  ['ONGC', 250, 262.4, 244.9, 246.1],
  ['TATASTEEL', 400, 148.2, 161.05, 159.9],
  ['ASIANPAINT', 12, 2900, 2455.6, 2470.2],
  ['NESTLEIND', 20, 2380, 2291.4, 2288],
  ['ULTRACEMCO', 3, 10950, 12210.5, 12198],
];

const REPLAY = replayCsv(HOLDINGS.map(([symbol, , , price, prev]) => [symbol, price, prev]));

const DESKTOP_900 = { width: 1280, height: 900 };

/** Noon IST on the Sunday before `now`: the NSE is closed whatever time the test runs. */
function lastSundayNoon(now = Date.now()): number {
  const day = new Date(now + 5.5 * 3_600_000).getUTCDay();
  const sunday = new Date(now - (day === 0 ? 7 : day) * 86_400_000);
  return Date.parse(`${sunday.toISOString().slice(0, 10)}T12:00:00+05:30`);
}

describe('e2e: Holdings screens (issue 17): edits, eye toggle, dialogs, market state, density', function () {
  this.timeout(120_000);
  const suite = signedInSuite({
    name: 'Meera Iyer',
    // One batch at start, then none for ten minutes: a page that does not load the snapshot
    // has no quote unless the header seeds one.
    replay: { csv: REPLAY, intervalMs: 600_000 },
    async seed(app, user) {
      for (const [symbol, quantity, averagePrice] of HOLDINGS)
        await addHolding(app, user, symbol, quantity, averagePrice);
    },
    viewport: DESKTOP_900,
    path: '/holdings',
  });

  before(async () => {
    await holdingRow(suite.page, 'INFY').locator('[data-col="ltp"]').getByText('₹1,512.40').waitFor();
  });

  /** Opens the Holdings page in `target` with `density` stored, as chosen on an earlier visit. */
  async function openHoldingsIn(target: Page, density: 'comfortable' | 'compact') {
    await target.goto(`${suite.app.url}/terms`);
    await target.evaluate((value) => localStorage.setItem('holdings_density', value), density);
    await target.goto(`${suite.app.url}/holdings`);
  }

  it('saves an inline edit when the field loses focus (a phone keypad has no Enter), Enter still saves', async () => {
    const { app, user, page } = suite;
    const row = holdingRow(page, 'INFY');
    await (await editInline(row, 'INFY', 'quantity')).fill('12');
    await page.getByRole('heading', { level: 1 }).click();
    await row.locator('[data-col="qty"]').getByText('12', { exact: true }).waitFor();

    const price = await editInline(row, 'INFY', 'buy price');
    await price.fill('1450');
    await price.press('Enter');
    await row.locator('[data-col="buy"]').getByText('₹1,450.00').waitFor();

    const listed = await apiClient(app.url).get<
      { symbol: string; quantity: string; average_price: string }[]
    >('/api/holdings', user.token);
    const infy = listed.body.data!.find((h) => h.symbol === 'INFY')!;
    expect([Number(infy.quantity), Number(infy.average_price)]).to.deep.equal([12, 1450]);
  });

  it("hides the rows' P&L, day change and account P&L with the summary, until the eye shows them", async () => {
    const { page } = suite;
    const row = holdingRow(page, 'SBIN');
    expect(await page.locator('[data-stat="Total Investment"]').innerText()).to.equal('****');
    expect(await row.locator('[data-col="pnl"]').innerText()).to.equal('****');
    expect(await row.locator('[data-col="day"]').innerText()).to.equal('****');
    await row.locator('.expand-button').click();
    const account = page.locator('.holding-details .account-item').first();
    await account.waitFor();
    const accountPnl = account.locator('.figure', { hasText: 'P&L' }).locator('dd');
    expect(await accountPnl.innerText()).to.equal('****');

    await showValues(page);
    // 150 SBIN bought at 680.40, now 1,021.10.
    expect(await row.locator('[data-col="pnl"]').innerText()).to.equal('+₹51,105.00');
    expect(await accountPnl.innerText()).to.equal('+₹51,105.00');
    expect(await row.locator('[data-col="day"]').innerText()).to.contain('-₹630.00');

    await page.getByRole('button', { name: 'Hide values' }).click();
    expect(await row.locator('[data-col="pnl"]').innerText()).to.equal('****');
    await row.locator('.expand-button').click();
  });

  it('returns focus to the button that opened each dialog, on Escape and on the close button', async () => {
    const { page } = suite;
    const openers: [Locator, string][] = [
      [page.getByRole('button', { name: 'Upload CSV' }), 'Upload Holdings'],
      [page.getByRole('button', { name: 'Price Guard', exact: true }), 'Price Guard - Smart Protection'],
      [page.getByRole('button', { name: 'Delete All Holdings' }), 'Delete all holdings?'],
      [page.getByRole('button', { name: 'Delete TCS (NSE)' }), 'Delete TCS?'],
      [page.getByRole('button', { name: 'Create Rule' }), 'Create Position Rule'],
      [page.getByRole('button', { name: 'Apply Templates' }), 'Apply Rule Templates'],
      [page.getByRole('button', { name: 'Manage Rules' }), 'Manage Position Rules'],
    ];
    for (const [opener, title] of openers) {
      for (const how of ['Escape', 'close button'] as const) {
        await opener.click();
        const dialog = page.getByRole('dialog', { name: title });
        await dialog.waitFor();
        if (how === 'Escape') await page.keyboard.press('Escape');
        else await dialog.getByRole('button', { name: 'Close', exact: true }).click();
        await dialog.waitFor({ state: 'detached' });
        expect(
          await opener.evaluate((el) => el === document.activeElement),
          `${title}, closed with ${how}: focus is on ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80))}`,
        ).to.equal(true);
      }
    }
  });

  it('shows each upload problem once: a missing column, a number out of range', async () => {
    const { page } = suite;
    const dialogLines = async (csv: string) => {
      const dialog = await openUploadDialog(page);
      await chooseFile(dialog, { name: 'holdings.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await dialog.locator('.error-box').waitFor();
      const lines = await dialog
        .locator('.error-box p, .error-box li')
        .evaluateAll((els) => els.map((el) => (el as HTMLElement).innerText.trim()));
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      return lines;
    };
    const missing = await dialogLines('Symbol,Buy Price\nINFY,1400\n');
    expect(missing).to.deep.equal(['Missing required column: Quantity/Qty']);
    const outOfRange = await dialogLines('Symbol,Quantity,Buy Price\nINFY,100000000000000,1400\n');
    expect(outOfRange.length, outOfRange.join(' | ')).to.be.at.least(1);
    expect(new Set(outOfRange).size, outOfRange.join(' | ')).to.equal(outOfRange.length);
  });

  it('says the same in the header on Holdings, History and Settings at the same minute', async () => {
    const { app, context } = suite;
    const labels: Record<string, string> = {};
    for (const route of ['/holdings', '/history', '/settings']) {
      const tab = await context.newPage();
      // A Sunday: without a quote the header would say 'Market closed'.
      await tab.clock.setFixedTime(lastSundayNoon());
      await tab.goto(`${app.url}${route}`);
      await tab.getByRole('heading', { level: 1 }).waitFor();
      await tab.locator('.live-indicator[data-tone="live"]').waitFor({ timeout: 8_000 });
      labels[route] = await tab.locator('.live-label').innerText();
      await tab.close();
    }
    expect(labels).to.deep.equal({ '/holdings': 'Live', '/history': 'Live', '/settings': 'Live' });
  });

  it('compact density: at least 18 holdings on a 1280×900 screen, with Current value; remembered', async () => {
    const { page } = suite;
    await page.getByRole('button', { name: 'Compact', exact: true }).click();
    await page.reload();
    const compact = page.getByRole('button', { name: 'Compact', exact: true });
    await compact.waitFor();
    expect(await compact.getAttribute('aria-pressed'), 'remembered after a reload').to.equal('true');
    await page.getByRole('columnheader', { name: 'Current value' }).waitFor();
    await holdingRow(page, 'SBIN').locator('[data-col="ltp"]').getByText('₹1,021.10').waitFor();
    await page.locator('.holdings-table thead').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    const visible = await page.locator('tr.holding-row').evaluateAll((rows) => {
      const header = document.querySelector('.site-header')?.getBoundingClientRect().bottom ?? 0;
      return rows.filter((row) => {
        const box = row.getBoundingClientRect();
        return box.top >= header && box.bottom <= window.innerHeight;
      }).length;
    });
    expect(visible, 'holdings fully on screen').to.be.at.least(18);
    await assertNoHorizontalScroll(page);
    const table = await page
      .locator('.holdings-table-wrap')
      .evaluate((el) => [el.scrollWidth, el.clientWidth]);
    expect(table[0], 'the compact table fits its card').to.be.at.most(table[1]!);
  });

  it('compact density on a 375 px phone: each holding is a two-line row', async () => {
    const { app, browser, user } = suite;
    const phoneContext = await signedInContext(browser, app, user, PHONE);
    const phone = await phoneContext.newPage();
    await openHoldingsIn(phone, 'compact');
    await holdingCard(phone, 'SBIN').locator('[data-col="ltp"]').getByText('₹1,021.10').waitFor();
    const rows = await phone.locator('li.holding-card').evaluateAll((items) =>
      items.map((item) => {
        const lines = [...item.querySelectorAll<HTMLElement>('.holding-line')];
        return {
          symbol: item.getAttribute('data-symbol'),
          lines: lines.length,
          // A line taller than one and a half line-heights has wrapped.
          singleLines: lines.every(
            (line) =>
              line.getBoundingClientRect().height < 1.5 * parseFloat(getComputedStyle(line).lineHeight),
          ),
        };
      }),
    );
    expect(rows).to.have.length(HOLDINGS.length);
    for (const row of rows) expect(row, row.symbol ?? '').to.include({ lines: 2, singleLines: true });
    // The second line's LTP and the current value are there.
    const sbin = holdingCard(phone, 'SBIN');
    expect(await sbin.locator('[data-col="value"]').innerText()).to.equal('****');
    await showValues(phone);
    expect(await sbin.locator('[data-col="value"]').innerText()).to.equal('₹1,53,165.00');
    await assertNoHorizontalScroll(phone);
    await phoneContext.close();
  });

  it('screenshots the holdings page in both densities at 1280 and 375 px', async () => {
    const { app, browser, user, errors } = suite;
    for (const [name, viewport] of [
      ['1280', DESKTOP_900],
      ['375', PHONE],
    ] as const) {
      for (const density of ['comfortable', 'compact'] as const) {
        const shotContext = await signedInContext(browser, app, user, viewport);
        const shot = await shotContext.newPage();
        await openHoldingsIn(shot, density);
        const item = viewport.width < 768 ? 'li.holding-card' : 'tr.holding-row';
        await shot.locator(`${item}[data-symbol="SBIN"] [data-col="ltp"]`).getByText('₹1,021.10').waitFor();
        await showValues(shot);
        await shot.waitForTimeout(300);
        await assertNoHorizontalScroll(shot);
        // A laptop as on arrival (the holdings are on the first screen); a phone scrolled to them.
        if (viewport.width < 768) await showUnderHeader(shot.locator('.holdings-card'));
        else await shot.mouse.move(0, 0);
        await docsScreenshot(shot, `holdings-${density}-${name}.png`);
        await shotContext.close();
      }
    }
    expect(errors).to.deep.equal([]);
  });
});
