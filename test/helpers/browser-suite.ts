/**
 * What every browser test file starts with: the real app serving the built client at
 * http://127.0.0.1:<port>, which is also its APP_URL (so the Socket.IO origin check and the
 * emailed links match the page, as in production), and Chromium.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { bootApp, type BootOptions, type TestApp } from './app.ts';
import { launchBrowser, requireBuiltClient } from './browser.ts';
import { freePort } from './services.ts';

export interface BrowserSuite {
  app: TestApp;
  browser: Browser;
}

export interface BrowserSuiteOptions extends BootOptions {
  /**
   * Prices from a replay file of these CSV rows (`time,symbol,exchange,price,prev_close`), one
   * batch a time value every `intervalMs`, looping; the file lives in a temporary folder that
   * goes when the app closes.
   */
  replay?: { csv: string; intervalMs: number };
}

/** The replay provider's environment for `csv`, and how to remove its file. */
async function replayEnv(replay: NonNullable<BrowserSuiteOptions['replay']>) {
  const dir = await mkdtemp(path.join(tmpdir(), 'browser-replay-'));
  const file = path.join(dir, 'replay.csv');
  await writeFile(file, replay.csv.endsWith('\n') ? replay.csv : `${replay.csv}\n`);
  return {
    env: {
      QUOTE_PROVIDER: 'replay',
      REPLAY_FILE: file,
      REPLAY_LOOP: 'true',
      QUOTE_INTERVAL_MS: String(replay.intervalMs),
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Boots the app on the built client (with `options`; `options.env` wins) and launches Chromium. */
export async function startBrowserSuite({
  replay,
  ...options
}: BrowserSuiteOptions = {}): Promise<BrowserSuite> {
  const port = await freePort();
  const prices = replay ? await replayEnv(replay) : undefined;
  const release = async () => {
    await prices?.remove();
  };
  let app: TestApp;
  try {
    const booted = await bootApp({
      clientDist: requireBuiltClient(),
      ...options,
      env: {
        ...prices?.env,
        PORT: String(port),
        APP_URL: `http://127.0.0.1:${port}`,
        ...options.env,
      },
    });
    app = {
      ...booted,
      close: async () => {
        await booted.close();
        await release();
      },
    };
  } catch (err) {
    await release();
    throw err;
  }
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
