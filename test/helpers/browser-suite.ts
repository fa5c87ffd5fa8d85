/** What every browser test file starts with: the real app serving the built client, and Chromium. */
import type { Browser } from 'playwright-core';
import { bootApp, type BootOptions, type TestApp } from './app.ts';
import { launchBrowser, requireBuiltClient } from './browser.ts';

export interface BrowserSuite {
  app: TestApp;
  browser: Browser;
}

/** Boots the app on the built client (with `options`) and launches Chromium. */
export async function startBrowserSuite(options: BootOptions = {}): Promise<BrowserSuite> {
  const app = await bootApp({ clientDist: requireBuiltClient(), ...options });
  return { app, browser: await launchBrowser() };
}

/** Closes what `startBrowserSuite` opened; either may be missing when the start failed. */
export async function stopBrowserSuite(suite: Partial<BrowserSuite>): Promise<void> {
  await suite.browser?.close();
  await suite.app?.close();
}
