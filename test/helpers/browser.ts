/**
 * Headless Chromium for browser tests (docs/tests.md#chromium): playwright-core driving the system
 * Chromium (CHROMIUM_PATH, else chromium-headless-shell or chromium: scripts/chromium.mjs)
 * against the built client.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumPath as findChromium, isExecutable } from '../../scripts/chromium.mjs';
import { trackBrowser } from './open-contexts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The built client the server serves in browser tests (`npm run build -w client`). */
export const builtClientDist = path.join(root, 'client', 'dist');

export const screenshotDir = path.join(root, 'test-results', 'screenshots');

export const chromiumPath = findChromium();

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/** Returns client/dist, or throws one line saying how to build it. */
export function requireBuiltClient(): string {
  if (!existsSync(path.join(builtClientDist, 'index.html'))) {
    throw new Error('client/dist/index.html is missing: run npm run build -w client (npm test does it)');
  }
  return builtClientDist;
}

/**
 * Launches headless Chromium; close it in an `after` hook. The contexts a test opens in it are
 * closed after the test (`open-contexts.ts`).
 */
export async function launchBrowser(): Promise<Browser> {
  if (!isExecutable(chromiumPath)) {
    throw new Error(
      `Chromium not found at ${chromiumPath}: install chromium-headless-shell or chromium, or set CHROMIUM_PATH`,
    );
  }
  const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
  trackBrowser(browser);
  return browser;
}

export interface Viewport {
  width: number;
  height: number;
}

export const DESKTOP: Viewport = { width: 1280, height: 800 };
export const PHONE: Viewport = { width: 375, height: 740 };

/** A page in its own context (own storage and cookies); closing the page closes the context. */
export function newPage(browser: Browser, viewport: Viewport = DESKTOP): Promise<Page> {
  return browser.newPage({ viewport, locale: 'en-IN', timezoneId: 'Asia/Kolkata' });
}

/** Saves a full-page PNG to test-results/screenshots/<name>.png; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Fails when the page scrolls sideways (content wider than the viewport). */
export async function assertNoHorizontalScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  if (scrollWidth > clientWidth) {
    throw new Error(
      `${page.url()} scrolls horizontally: content is ${scrollWidth}px wide in a ${clientWidth}px viewport`,
    );
  }
}
