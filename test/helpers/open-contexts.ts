/**
 * Every browser context a test opens is closed after it (root hooks, `test/helpers/root-hooks.ts`):
 * a page left open is a live app (socket, timers, re-renders on every tick) that keeps Chromium
 * busy until its file ends. Contexts opened in a `before` hook are kept for the file's tests, and
 * so is one a test hands on to the next (`keepOpen`).
 */
import type { Browser, BrowserContext } from 'playwright-core';

const browsers = new Set<Browser>();
let before = new Set<BrowserContext>();
const kept = new WeakSet<BrowserContext>();

/** A context the next tests go on with: closed with its browser, not after this test. */
export function keepOpen(context: BrowserContext): BrowserContext {
  kept.add(context);
  return context;
}

/** Called by `launchBrowser`: this browser's test contexts are closed after each test. */
export function trackBrowser(browser: Browser): void {
  browsers.add(browser);
  browser.once('disconnected', () => browsers.delete(browser));
}

function openContexts(): BrowserContext[] {
  return [...browsers].flatMap((browser) => browser.contexts());
}

/** Before each test: the contexts open now are the file's, not the test's. */
export function noteOpenContexts(): void {
  before = new Set(openContexts());
}

/** After each test: closes the contexts it opened. */
export async function closeTestContexts(): Promise<void> {
  const opened = openContexts().filter((context) => !before.has(context) && !kept.has(context));
  await Promise.all(opened.map((context) => context.close().catch(() => undefined)));
}
