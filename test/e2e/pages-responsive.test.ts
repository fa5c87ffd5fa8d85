/**
 * Every route (docs/pages.md) at 360 px (issue 2: responsive down to 360 px with no sideways
 * scroll) and accessible (labels, contrast): every form field has an accessible name, and
 * axe-core finds no critical or serious violation.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { seriousViolations } from '../helpers/axe.ts';
import { readSharedBytes } from '../helpers/shared-data.ts';
import { assertNoHorizontalScroll, DESKTOP, newPage } from '../helpers/browser.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { addHolding } from '../server/rules/support.ts';
import { chooseFile, openUploadDialog, signedInContext } from './support.ts';

const NARROW = { width: 360, height: 740 };
/** Form fields without an accessible name (label, aria-label, aria-labelledby or title). */
function unnamedFields(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('input, select, textarea')]
      .filter((el) => !(el instanceof HTMLInputElement && el.type === 'hidden'))
      .filter((el) => {
        const labels = (el as HTMLInputElement).labels;
        const labelled = el
          .getAttribute('aria-labelledby')
          ?.split(/\s+/)
          .some((id) => document.getElementById(id)?.textContent?.trim());
        return !(
          (labels && [...labels].some((l) => l.textContent?.trim())) ||
          el.getAttribute('aria-label')?.trim() ||
          labelled ||
          el.getAttribute('title')?.trim()
        );
      })
      .map((el) => el.outerHTML.slice(0, 160)),
  );
}

/**
 * Amounts (₹ or % figures) shown on more than one line: each is one text node, so a text node
 * whose boxes sit at two heights has wrapped ("+" / "₹14,70,957.60").
 */
function wrappedAmounts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const amount = /^[+\-−]?₹?[\d,]+(\.\d+)?%?$/;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const wrapped: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      if (!/[₹%]/.test(text) || !amount.test(text)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const lines = new Set(
        [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)),
      );
      if (lines.size > 1) wrapped.push(text);
    }
    return wrapped;
  });
}

interface RouteCase {
  path: string;
  /** Resolves once the page shows its content (not a loading state). */
  ready(page: Page): Promise<unknown>;
}

const PUBLIC_ROUTES: RouteCase[] = [
  { path: '/', ready: (p) => p.getByRole('button', { name: 'Get Started' }).first().waitFor() },
  { path: '/login', ready: (p) => p.getByRole('button', { name: 'Sign in (demo)' }).waitFor() },
  {
    path: '/terms',
    ready: (p) => p.getByRole('heading', { level: 1, name: 'Terms and Conditions' }).waitFor(),
  },
  { path: '/privacy', ready: (p) => p.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor() },
  { path: '/contact', ready: (p) => p.getByRole('heading', { level: 1, name: 'Contact us' }).waitFor() },
  {
    path: '/know-more',
    ready: (p) => p.getByText('Pricing information available after login').waitFor(),
  },
  { path: '/verify-endpoint', ready: (p) => p.getByText('Invalid verification link.').waitFor() },
];

const SIGNED_IN_ROUTES: RouteCase[] = [
  {
    path: '/dashboard',
    ready: async (p) => {
      await p.getByRole('list', { name: 'Allocation by holding' }).waitFor();
      await p.locator('.allocation-chart svg').first().waitFor();
    },
  },
  { path: '/holdings', ready: (p) => p.getByText('RELIANCE').first().waitFor() },
  {
    path: '/history',
    ready: (p) => p.getByRole('heading', { level: 1, name: 'Rule Execution History' }).waitFor(),
  },
  { path: '/settings', ready: (p) => p.getByRole('list', { name: 'Notification endpoints' }).waitFor() },
  { path: '/know-more', ready: (p) => p.getByText('Your plan').waitFor() },
];

describe('e2e: every route at 360 px, with labelled fields and no serious axe violations', function () {
  this.timeout(60_000);
  let app: TestApp;
  let browser: Browser;
  let user: SignedInUser;

  before(async () => {
    ({ app, browser } = await startBrowserSuite());
    user = await signIn(app, { name: 'Sunita Deshpande' });
    await addHolding(app, user, 'RELIANCE', 25, 2450.5);
    await addHolding(app, user, 'TCS', 8, 3900);
  });
  after(async () => {
    await stopBrowserSuite({ app, browser });
  });

  async function checkRoute(page: Page, route: RouteCase) {
    const errors: string[] = [];
    const record = (err: Error) => errors.push(err.message);
    page.on('pageerror', record);
    await page.goto(`${app.url}${route.path}`);
    await route.ready(page);
    await assertNoHorizontalScroll(page);
    expect(await unnamedFields(page), `${route.path}: fields without a name`).to.deep.equal([]);
    expect(await seriousViolations(page), `${route.path}: axe`).to.deep.equal([]);
    expect(errors, `${route.path}: page errors`).to.deep.equal([]);
    page.off('pageerror', record);
  }

  for (const route of PUBLIC_ROUTES) {
    it(`${route.path} (signed out)`, async () => {
      const page = await newPage(browser, NARROW);
      await checkRoute(page, route);
      await page.close();
    });
  }

  for (const route of SIGNED_IN_ROUTES) {
    it(`${route.path} (signed in)`, async () => {
      const context = await signedInContext(browser, app, user, NARROW);
      await checkRoute(await context.newPage(), route);
      await context.close();
    });
  }

  it('every route at 1280 px, where the wide layouts show (tables, header links)', async () => {
    const context = await signedInContext(browser, app, user, DESKTOP);
    const page = await context.newPage();
    for (const route of SIGNED_IN_ROUTES) await checkRoute(page, route);
    await context.close();
    const visitor = await newPage(browser, DESKTOP);
    for (const route of PUBLIC_ROUTES) await checkRoute(visitor, route);
    await visitor.close();
  });

  it('/holdings: no amount wraps at 360, 375 and 1280 px (values shown, a row open, the upload preview)', async () => {
    // Amounts as long as an investor's: ₹14,70,957.60 invested, a P&L in lakhs.
    const investor = await signIn(app, { name: 'Kavita Rao' });
    await addHolding(app, investor, 'RELIANCE', 1000, 1470.9576);
    await addHolding(app, investor, 'HDFCBANK', 5000, 10.5);
    const kite = readSharedBytes('fixtures/brokers/zerodha_kite_holdings.csv');
    for (const viewport of [NARROW, { width: 375, height: 740 }, DESKTOP]) {
      const context = await signedInContext(browser, app, investor, viewport);
      const page = await context.newPage();
      await page.goto(`${app.url}/holdings`);
      const phone = viewport.width < 768;
      const item = phone ? 'li.holding-card' : 'tr.holding-row';
      // HDFCBANK was just added: its first price may come after the page's snapshot, live, and a
      // row takes live prices while it is on screen (useVisibleQuote), as a user scrolling to it.
      const ltp = page.locator(`${item}[data-symbol="HDFCBANK"] [data-col="ltp"]`);
      await ltp.scrollIntoViewIfNeeded();
      await ltp.getByText('₹').waitFor();
      await page.getByRole('button', { name: 'Show values' }).click();
      await page.locator(`${item}[data-symbol="HDFCBANK"] .expand-button`).click();
      await page.locator('.holding-details .account-item').first().waitFor();
      expect(await wrappedAmounts(page), `${viewport.width} px: amounts on two lines`).to.deep.equal([]);
      await assertNoHorizontalScroll(page);

      const dialog = await openUploadDialog(page);
      await chooseFile(dialog, { name: 'holdings.csv', mimeType: 'text/csv', buffer: kite });
      const preview = dialog.locator('.upload-rows');
      await preview.locator('tbody tr').first().waitFor();
      expect(await wrappedAmounts(page), `${viewport.width} px: preview amounts on two lines`).to.deep.equal(
        [],
      );
      // Every price of the preview in view, not cut off at the table's edge.
      const cut = await preview.evaluate((wrap) => {
        const edge = wrap.getBoundingClientRect().right;
        return [...wrap.querySelectorAll('tbody td:last-child')]
          .filter((cell) => cell.getBoundingClientRect().right > edge + 1)
          .map((cell) => cell.textContent);
      });
      expect(cut, `${viewport.width} px: prices cut off in the preview`).to.deep.equal([]);
      await context.close();
    }
  });

  it('/settings with the add form and the phone menu open', async () => {
    const context = await signedInContext(browser, app, user, NARROW);
    const page = await context.newPage();
    await checkRoute(
      page,
      SIGNED_IN_ROUTES.find((r) => r.path === '/settings')!,
    );
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByLabel('Email Address').waitFor();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Close menu' }).waitFor();
    await assertNoHorizontalScroll(page);
    expect(await unnamedFields(page)).to.deep.equal([]);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await context.close();
  });
});
