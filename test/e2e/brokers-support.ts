/**
 * The opening of the "Connect a broker" browser files (docs/holdings.md#connect-a-broker): the
 * fake Kite Connect and the fake Dhan started first, the app on them (Upstox and Angel One left
 * without keys), Chromium; and the steps a user takes on Settings' Brokers card and Holdings.
 */
import { expect } from 'chai';
import type { Browser, Locator, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { assertNoHorizontalScroll, DESKTOP, PHONE } from '../helpers/browser.ts';
import { startFakeDhan, type FakeDhan } from '../helpers/fake-brokers/dhan.ts';
import { startFakeKite, type FakeKite } from '../helpers/fake-brokers/kite.ts';
import { madeBefore } from '../helpers/made-before.ts';
import { docsScreenshot } from './support.ts';

/** The client id the fake Kite signs every login in as (the sample's). */
export const KITE_CLIENT_ID = 'XX0000';

/** Called in a `describe`: the fakes, the app on them and Chromium, for its tests. */
export function brokersBrowserSuite() {
  const made: { app?: TestApp; browser?: Browser; kite?: FakeKite; dhan?: FakeDhan } = {};
  before(async () => {
    made.kite = await startFakeKite();
    made.dhan = await startFakeDhan();
    Object.assign(made, await startBrowserSuite({ env: { ...made.kite.env, ...made.dhan.env } }));
    made.kite.script.redirectUrl = `${made.app!.url}/api/brokers/callback/kite`;
  });
  beforeEach(() => {
    made.kite?.reset();
    made.dhan?.fail.clear();
  });
  after(async () => {
    await stopBrowserSuite(made);
    await made.kite?.close();
    await made.dhan?.close();
  });
  return {
    app: madeBefore('the app', () => made.app),
    browser: madeBefore('Chromium', () => made.browser),
    kite: madeBefore('the fake Kite', () => made.kite),
    dhan: madeBefore('the fake Dhan', () => made.dhan),
  };
}

/** Settings' Brokers card. */
export function brokersCard(page: Page): Locator {
  return page.getByRole('region', { name: 'Brokers' });
}

/** The card's row of a connected account (`Zerodha · XX0000`). */
export function accountRow(page: Page, displayName: string): Locator {
  return brokersCard(page).getByRole('listitem', { name: displayName, exact: true });
}

/** The card's row of a broker one can connect (`Zerodha`, `Upstox`). */
export function providerRow(page: Page, name: string): Locator {
  return brokersCard(page)
    .getByRole('list', { name: 'Brokers you can connect' })
    .getByRole('listitem', { name, exact: true });
}

/** Holdings' line of connected accounts. */
export function syncStrip(page: Page): Locator {
  return page.getByRole('region', { name: 'Connected brokers' });
}

/**
 * On the fake Kite's login page (the browser was sent there): clicks "Log in" or "Cancel" and
 * waits until the app has the browser back.
 */
export async function answerKiteLogin(
  page: Page,
  app: TestApp,
  kite: FakeKite,
  choice: 'Log in' | 'Cancel',
): Promise<void> {
  await page.waitForURL((url) => url.href.startsWith(`${kite.url}/connect/login`));
  expect(await page.title()).to.equal('Kite - Login');
  await page.getByRole('link', { name: choice, exact: true }).click();
  await page.waitForURL((url) => url.origin === new URL(app.url).origin && !url.pathname.startsWith('/api/'));
}

/**
 * `docs/brokers-<name>-1280.png` and `-375.png` of what `show` scrolls to (the page's viewport,
 * as a user sees it), checking the phone's page does not scroll sideways; back at 1280 after.
 */
export async function brokersScreenshots(page: Page, name: string, show: () => Promise<void>): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await show();
  await docsScreenshot(page, `brokers-${name}-1280.png`);
  await page.setViewportSize(PHONE);
  await show();
  await assertNoHorizontalScroll(page);
  await docsScreenshot(page, `brokers-${name}-375.png`);
  await page.setViewportSize(DESKTOP);
}
