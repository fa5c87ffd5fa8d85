/**
 * What every browser test file starts with: the real app serving the built client at
 * http://127.0.0.1:<port>, which is also its APP_URL (so the Socket.IO origin check and the
 * emailed links match the page, as in production), and Chromium.
 */
import type { Browser } from 'playwright-core';
import { bootApp, type BootOptions, type TestApp } from './app.ts';
import { launchBrowser, requireBuiltClient } from './browser.ts';
import { freePort } from './services.ts';

export interface BrowserSuite {
  app: TestApp;
  browser: Browser;
}

/** Boots the app on the built client (with `options`; `options.env` wins) and launches Chromium. */
export async function startBrowserSuite(options: BootOptions = {}): Promise<BrowserSuite> {
  const port = await freePort();
  const app = await bootApp({
    clientDist: requireBuiltClient(),
    ...options,
    env: { PORT: String(port), APP_URL: `http://127.0.0.1:${port}`, ...options.env },
  });
  try {
    return { app, browser: await launchBrowser() };
  } catch (err) {
    await app.close();
    throw err;
  }
}

/** Closes what `startBrowserSuite` opened; either may be missing when the start failed. */
export async function stopBrowserSuite(suite: Partial<BrowserSuite>): Promise<void> {
  await suite.browser?.close();
  await suite.app?.close();
}
