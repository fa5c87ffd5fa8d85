/** Shared steps of the browser tests: a signed-in page, and a record of what went wrong in it. */
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { DESKTOP, type Viewport } from '../helpers/browser.ts';
import { signedInContext } from './support.ts';
import type { SignedInUser } from '../helpers/users.ts';

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
