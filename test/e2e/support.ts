/**
 * Shared steps of the browser tests: a signed-in browser context or page, a record of what went
 * wrong in a page, a suite on one signed-in page, what the tests start from (holdings, rules,
 * replayed prices), the Holdings page's steps (its rows, the upload dialog, inline edits,
 * deleting), and the files the tests upload (the app and Chromium come from `startBrowserSuite`).
 */
import { parseCsv } from '@app/common/holdings/csv';
import ExcelJS from 'exceljs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { readShared } from '../helpers/shared-data.ts';
import type { TestApp } from '../helpers/app.ts';
import {
  startBrowserSuite,
  stopBrowserSuite,
  type BrowserSuite,
  type BrowserSuiteOptions,
} from '../helpers/browser-suite.ts';
import { DESKTOP, screenshotDir, type Viewport } from '../helpers/browser.ts';
import { apiClient } from '../helpers/http.ts';
import { replayFile } from '../helpers/replay.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { waitFor } from '../helpers/wait.ts';
import { createRule } from '../server/rules/support.ts';

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

const docsDir = fileURLToPath(new URL('../../docs/', import.meta.url));

/**
 * Scrolls `element` to just under the sticky header, where a user scrolling to it sees it, and
 * moves the mouse out of the way (no hover in a screenshot).
 */
export async function showUnderHeader(element: Locator): Promise<void> {
  await element.evaluate((el) => {
    const header = document.querySelector('.site-header')?.getBoundingClientRect().height ?? 0;
    window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - header - 8);
  });
  await element.page().mouse.move(0, 0);
}

/**
 * A screenshot of the page's viewport for the docs, named `file`: into docs/ with
 * UPDATE_DOCS_SCREENSHOTS=1, else into test-results/screenshots/.
 */
export async function docsScreenshot(page: Page, file: string): Promise<void> {
  const dir = process.env.UPDATE_DOCS_SCREENSHOTS === '1' ? docsDir : screenshotDir;
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, file) });
}

/** The path of the page, with its query string. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

export interface SignedInSuiteOptions extends BrowserSuiteOptions {
  /** The name the user signs in with. */
  name: string;
  /** What the tests start from (holdings, rules), added once the user is signed in. */
  seed?: (app: TestApp, user: SignedInUser) => Promise<void>;
  /** The page's viewport; DESKTOP unless given. */
  viewport?: Viewport;
  /** Where the page opens; without it the page stays blank until a test opens one. */
  path?: string;
}

export interface SignedInSuite extends BrowserSuite {
  user: SignedInUser;
  context: BrowserContext;
  page: Page;
  /** The page's uncaught errors (`pageErrors`). */
  errors: string[];
}

/**
 * The opening of a browser test file whose tests share one signed-in page, called in its
 * `describe`. Before the tests: the app and Chromium (`startBrowserSuite` with `options`), the
 * user signed in, `seed` run, then the page in its own signed-in context, recording its errors,
 * opened at `path` when given. After them, all stopped. The fields are there from the first test
 * (and in the file's own hooks, which run after these).
 */
export function signedInSuite({
  name,
  seed,
  viewport,
  path,
  ...options
}: SignedInSuiteOptions): SignedInSuite {
  const suite: Partial<SignedInSuite> = {};
  before(async () => {
    const { app, browser } = await startBrowserSuite(options);
    Object.assign(suite, { app, browser });
    const user = await signIn(app, { name });
    suite.user = user;
    await seed?.(app, user);
    suite.context = await signedInContext(browser, app, user, viewport);
    suite.page = await suite.context.newPage();
    suite.errors = pageErrors(suite.page);
    if (path) await suite.page.goto(`${app.url}${path}`);
  });
  after(() => stopBrowserSuite(suite));
  return suite as SignedInSuite;
}

/** Uploads a holdings file through the API (as the upload dialog does); fails unless it is stored. */
export async function uploadHoldings(
  app: Pick<TestApp, 'url'>,
  user: Pick<SignedInUser, 'token'>,
  upload: { csvData: string; broker_name?: string; account?: { new_name: string } },
): Promise<void> {
  const res = await apiClient(app.url).post('/api/holdings/upload-csv', upload, user.token);
  if (res.status !== 201) throw new Error(`upload holdings: ${res.status} ${res.body.error}`);
}

/**
 * Creates a position rule as soon as the server takes it: a rule needs its instrument's quote,
 * which the first replayed batch after the holding was added brings. Fails after about 10 s.
 */
export async function createRuleOncePriced(
  app: TestApp,
  user: SignedInUser,
  rule: Record<string, unknown>,
): Promise<void> {
  let answer = '';
  const taken = async () => {
    const res = await createRule(app, user, rule);
    answer = `${res.status} ${res.body.error}`;
    return res.status === 201;
  };
  await waitFor('the rule to be taken', taken, 10_000, 200).catch((err: Error) => {
    throw new Error(`rule for ${String(rule.symbol)}: ${answer}`, { cause: err });
  });
}

/** Prices of NSE symbols: symbol, price, previous close. */
export type ReplayPrices = readonly (readonly [symbol: string, price: number, prevClose: number])[];

/** A replay file (`startBrowserSuite`'s `replay.csv`) of one batch: `prices`, looped. */
export function replayCsv(prices: ReplayPrices): string {
  return replayFile(prices.map(([symbol, price, prevClose]) => ({ time: 'open', symbol, price, prevClose })));
}

/** The Zerodha Kite fixture's holdings, with RELIANCE and INFY, at known prices. */
export const KITE_PRICES: ReplayPrices = [
  ['NIFTYBEES', 272.99, 273.37],
  ['SBIN', 1021.1, 1025.3],
  ['M&M', 3120.4, 3101.2],
  ['BAJAJ-AUTO', 8650.5, 8633.2],
  ['IDEA', 7.12, 7.04],
  ['RELIANCE', 1492.3, 1478.6],
  ['INFY', 1512.4, 1500],
];

/** The symbols of the holdings table, top to bottom. */
export function tableSymbols(page: Page): Promise<string[]> {
  return page
    .locator('tr.holding-row')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-symbol') ?? ''));
}

/** The Holdings table's row of `symbol`. */
export function holdingRow(page: Page, symbol: string): Locator {
  return page.locator(`tr.holding-row[data-symbol="${symbol}"]`);
}

/** The phone card of `symbol` on the Holdings page (below 768 px). */
export function holdingCard(page: Page, symbol: string): Locator {
  return page.locator(`li.holding-card[data-symbol="${symbol}"]`);
}

/** The Upload Holdings dialog (opened with Upload CSV, or at `/holdings?upload=csv`). */
export function uploadDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Upload Holdings' });
}

/** Opens the upload dialog with the first Upload CSV button. */
export async function openUploadDialog(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Upload CSV' }).first().click();
  return uploadDialog(page);
}

/** Chooses `file` (a path, or a name, type and contents) in the upload dialog. */
export function chooseFile(
  dialog: Locator,
  file: string | { name: string; mimeType: string; buffer: Buffer },
): Promise<void> {
  return dialog.locator('input[type=file]').setInputFiles(file);
}

/** Presses the dialog's Upload and waits for it to close. */
export async function confirmUpload(dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Deletes the holding of `symbol` (NSE) with its row's delete button and the confirmation. */
export async function deleteHolding(page: Page, symbol: string): Promise<void> {
  await page.getByRole('button', { name: `Delete ${symbol} (NSE)` }).click();
  await page
    .getByRole('dialog', { name: `Delete ${symbol}?` })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
}

/** Presses Delete All Holdings and confirms it. */
export async function deleteAllHoldings(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Delete All Holdings' }).click();
  await page
    .getByRole('dialog', { name: 'Delete all holdings?' })
    .getByRole('button', { name: 'Delete All Holdings' })
    .click();
}

/**
 * Opens the inline edit of `symbol`'s quantity or buy price in its row, and returns its field
 * (Enter or leaving the field saves, Escape cancels).
 */
export async function editInline(
  row: Locator,
  symbol: string,
  field: 'quantity' | 'buy price',
): Promise<Locator> {
  await row.getByRole('button', { name: new RegExp(`Edit ${field} of ${symbol}`) }).click();
  return row.getByRole('spinbutton', { name: `New ${field} of ${symbol}` });
}

/** Opens the manual entry form with + Add New. */
export async function openManualEntry(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: '+ Add New' }).click();
  return page.locator('form.manual-entry');
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

/**
 * Shows the amounts with the eye toggle unless they are shown already: the choice is remembered
 * on the device (the browser context), so an earlier page of the same context may have made it.
 */
export async function showValues(page: Page): Promise<void> {
  const show = page.getByRole('button', { name: 'Show values' });
  const hide = page.getByRole('button', { name: 'Hide values' });
  await show.or(hide).first().waitFor();
  if (await show.count()) await show.first().click();
  await hide.first().waitFor();
}
