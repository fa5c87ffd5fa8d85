/**
 * Shared steps of the browser tests: a signed-in browser context or page, a record of what went
 * wrong in a page, and the files the tests upload (the app and Chromium come from
 * `startBrowserSuite`).
 */
import { parseCsv } from '@app/common/holdings/csv';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { readShared } from '../helpers/shared-data.ts';
import type { TestApp } from '../helpers/app.ts';
import { DESKTOP, type Viewport } from '../helpers/browser.ts';
import type { SignedInUser } from '../helpers/users.ts';

/** A browser context whose localStorage holds the user's tokens (as after signing in). */
export async function signedInContext(
  browser: Browser,
  app: Pick<TestApp, 'url'>,
  user: Pick<SignedInUser, 'token' | 'refreshToken'>,
  viewport: Viewport = DESKTOP,
): Promise<BrowserContext> {
  // Playwright writes the origin's localStorage without loading the app.
  const localStorage = [
    { name: 'auth_token', value: user.token },
    { name: 'refresh_token', value: user.refreshToken },
  ];
  return browser.newContext({
    viewport,
    locale: 'en-IN',
    timezoneId: 'Asia/Kolkata',
    storageState: { cookies: [], origins: [{ origin: new URL(app.url).origin, localStorage }] },
  });
}

/** The symbols of the holdings table, top to bottom. */
export function tableSymbols(page: Page): Promise<string[]> {
  return page
    .locator('tr.holding-row')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-symbol') ?? ''));
}

/** A Zerodha Console holdings workbook: a Mutual Funds sheet first, then the Equity sheet. */
export async function consoleWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const funds = workbook.addWorksheet('Mutual Funds');
  funds.addRow(['Symbol', 'ISIN', 'Quantity Available', 'Average Price']);
  funds.addRow(['PARAG PARIKH FLEXI CAP', 'INF879O01027', 120.5, 61.2]);
  const equity = workbook.addWorksheet('Equity');
  const grid = parseCsv(readShared('fixtures/brokers/zerodha_console_holdings_Equity_sheet_layout.csv'));
  for (const row of grid) {
    equity.addRow(
      row.map((cell) => (cell === '' ? null : /^-?\d+(\.\d+)?$/.test(cell) ? Number(cell) : cell)),
    );
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Uncaught errors of a page; assert it is empty at the end of a test. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

/**
 * A page signed in as `user` (tokens in localStorage, as after a real sign-in), opened at
 * `path` in its own browser context.
 */
export async function openSignedIn(
  browser: Browser,
  app: TestApp,
  user: SignedInUser,
  path: string,
  viewport: Viewport = DESKTOP,
): Promise<Page> {
  const page = await (await signedInContext(browser, app, user, viewport)).newPage();
  await page.goto(`${app.url}${path}`);
  return page;
}

/** The path of the page, with its query string. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}
