/**
 * Browser-test plumbing for the signed-in screens: a signed-in browser context and the files
 * the tests upload (the app and Chromium come from `startBrowserSuite`).
 */
import { parseCsv } from '@app/common/holdings/csv';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { readShared } from '../common/helpers.ts';
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
  const context = await browser.newContext({ viewport, locale: 'en-IN', timezoneId: 'Asia/Kolkata' });
  const page = await context.newPage();
  await page.goto(`${app.url}/terms`);
  await page.evaluate(
    ([token, refresh]) => {
      localStorage.setItem('auth_token', token!);
      localStorage.setItem('refresh_token', refresh!);
    },
    [user.token, user.refreshToken],
  );
  await page.close();
  return context;
}

/** Collects uncaught page errors, to assert there were none. */
export { pageErrors as watchPageErrors } from './helpers.ts';

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
