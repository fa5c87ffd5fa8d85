/**
 * B6: the client. (1) The scripting time one tick batch costs the Holdings page of a user with
 * 1,000 holdings, in headless Chromium: the real app (in this process, without the embedded
 * streamer) serves the built client; the bench publishes full batches through the runtime's bus
 * and reads the renderer's ScriptDuration (CDP `Performance.getMetrics`) before the batch and
 * once the page has settled after it. (2) The initial JavaScript: gzip of the entry script and
 * the modules index.html preloads, what the landing page loads before it can render.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseConfig } from '@app/config';
import type { CDPSession, Page } from 'playwright-core';
import { pino } from 'pino';
import { startServerRuntime, type ServerRuntime } from '../../server/src/runtime.ts';
import { launchBrowser, requireBuiltClient } from '../../test/helpers/browser.ts';
import { freePort } from '../../test/helpers/services.ts';
import { plausibleSymbols, tickBatch } from '../lib/market.ts';
import { seedQuotes, seedUsers } from '../lib/seed.ts';
import { BENCH_JWT_SECRET, tokenFor } from '../lib/servers.ts';
import { freshDatabase } from '../lib/services.ts';
import { median, sleep } from '../lib/stats.ts';
import { result, round, type BenchContext, type Benchmark } from '../lib/types.ts';

export const B6_SIZES = {
  full: { holdings: 1000, instruments: 2000, warmup: 3, batches: 20, gapMs: 500 },
  quick: { holdings: 50, instruments: 200, warmup: 1, batches: 2, gapMs: 100 },
};
type Size = (typeof B6_SIZES)['full'];

export interface BatchCost {
  /** Renderer main-thread time in script, layout and style recalculation, ms. */
  scriptMs: number;
  layoutMs: number;
  styleMs: number;
  /** Long tasks (> 50 ms) the page saw. */
  longTasks: number;
  /** Holdings rows in the document, in the viewport, and in the viewport showing this batch's price. */
  rows: number;
  rowsInView: number;
  rowsUpdated: number;
}

export interface B6Evidence {
  size: Size;
  /** Rows in the table once the page had loaded. */
  rowsLoaded: number;
  batches: BatchCost[];
  /** The same measurement with no batch published: what measuring costs. */
  idle: BatchCost;
  /** After the batches, scrolled to the end: rows in view, and those showing the last batch. */
  scrolled: { rowsInView: number; rowsUpdated: number };
  initialJs: { files: string[]; bytes: number; gzipBytes: number };
}

/** The entry script and modulepreloads of index.html, raw and gzipped. */
export async function initialJavaScript(dist: string): Promise<B6Evidence['initialJs']> {
  const html = await readFile(path.join(dist, 'index.html'), 'utf8');
  const files = [
    ...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ].map((m) => m[1]!);
  let bytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const body = await readFile(path.join(dist, file.replace(/^\//, '')));
    bytes += body.length;
    gzipBytes += gzipSync(body).length;
  }
  return { files, bytes, gzipBytes };
}

/** The app on a fixed free port, APP_URL matching it (the socket origin check), no streamer. */
async function startApp(databaseUrl: string | undefined, clientDist: string): Promise<ServerRuntime> {
  const port = await freePort();
  const config = parseConfig({
    NODE_ENV: 'production',
    DEMO_MODE: 'true',
    DEMO_MODE_PUBLIC_OK: 'true',
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'warn',
    JWT_SECRET: BENCH_JWT_SECRET,
    DATABASE_URL: databaseUrl,
  });
  return startServerRuntime(config, {
    log: pino({ level: 'warn' }),
    clientDist,
    embeddedStreamer: false,
  });
}

/** Renderer metrics, in ms. */
async function metrics(cdp: CDPSession) {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  const of = (name: string) => 1000 * (list.find((m) => m.name === name)?.value ?? 0);
  return { script: of('ScriptDuration'), layout: of('LayoutDuration'), style: of('RecalcStyleDuration') };
}

/**
 * In the page: resolves once the document has changed and then stayed still for `quietMs`
 * (or after `limitMs` with no change), and counts long tasks meanwhile. Page scripts are strings
 * here: tsx would wrap named functions in a helper the page does not have.
 */
function armSettle(page: Page, quietMs: number, limitMs: number) {
  return page.evaluate(`(() => {
    window.__b6 = new Promise((resolve) => {
      let longTasks = 0;
      const tasks = new PerformanceObserver((list) => (longTasks += list.getEntries().length));
      tasks.observe({ type: 'longtask' });
      const finish = () => {
        observer.disconnect();
        tasks.disconnect();
        resolve(longTasks);
      };
      let timer = setTimeout(finish, ${limitMs});
      const observer = new MutationObserver(() => {
        clearTimeout(timer);
        timer = setTimeout(finish, ${quietMs});
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
  })()`);
}

const settled = (page: Page) => page.evaluate(() => (window as unknown as { __b6: Promise<number> }).__b6);

/**
 * Rows in the document, rows in the viewport, and how many of those show the price the batch
 * gave their instrument (rows off screen catch up as they scroll in: useVisibleQuote).
 */
function rowsShowing(page: Page, prices: Record<string, number>) {
  return page.evaluate<{ rows: number; inView: number; updated: number }>(`(() => {
    const expected = ${JSON.stringify(prices)};
    const rows = [...document.querySelectorAll('tr.holding-row')];
    const inView = rows.filter((row) => {
      const box = row.getBoundingClientRect();
      return box.bottom > 0 && box.top < window.innerHeight;
    });
    const updated = inView.filter((row) => {
      const ltp = row.querySelector('[data-col="ltp"] [data-live-value]')?.getAttribute('data-live-value');
      return ltp != null && Number(ltp) === expected[row.getAttribute('data-symbol') ?? ''];
    });
    return { rows: rows.length, inView: inView.length, updated: updated.length };
  })()`);
}

async function measureBatch(
  page: Page,
  cdp: CDPSession,
  publish: (() => Promise<Record<string, number>>) | undefined,
): Promise<BatchCost> {
  await armSettle(page, 150, publish ? 5000 : 600);
  const before = await metrics(cdp);
  const prices = publish ? await publish() : {};
  const longTasks = await settled(page);
  const after = await metrics(cdp);
  const shown = await rowsShowing(page, prices);
  return {
    scriptMs: after.script - before.script,
    layoutMs: after.layout - before.layout,
    styleMs: after.style - before.style,
    longTasks,
    rows: shown.rows,
    rowsInView: shown.inView,
    rowsUpdated: shown.updated,
  };
}

async function measurePage(runtime: ServerRuntime, size: Size, log: (m: string) => void) {
  const symbols = plausibleSymbols(size.instruments);
  const [user] = await seedUsers(runtime.deps.db, { tag: 'b6', count: 1, perUser: size.holdings, symbols });
  await seedQuotes(runtime.deps.db, symbols);
  const token = tokenFor(user!.id);
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: 'en-IN',
      timezoneId: 'Asia/Kolkata',
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${runtime.url}/terms`);
    await page.evaluate((t) => localStorage.setItem('auth_token', t), token);
    await page.goto(`${runtime.url}/holdings`);
    await page.locator('tr.holding-row').first().waitFor({ timeout: 60_000 });
    // The socket is in and the fan-out knows the user's instruments.
    for (let i = 0; runtime.fanout.localUsers() < 1; i++) {
      if (i > 300) throw new Error('the page never opened its live connection');
      await sleep(50);
    }
    const rowsLoaded = await page.locator('tr.holding-row').count();
    // Scrolled into the table, so that the viewport is full of rows (at the top, the summary
    // and the rule bars leave room for two).
    await page
      .locator('tr.holding-row')
      .nth(Math.floor(rowsLoaded / 2))
      .scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, -window.innerHeight / 2));
    await sleep(300);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    let seq = 0;
    const publish = async () => {
      const batch = tickBatch(symbols, ++seq);
      await runtime.bus.publishBatch(batch);
      return Object.fromEntries(batch.quotes.map((q) => [q.symbol, q.ltp]));
    };
    log(`B6: ${rowsLoaded} rows on the page; ${size.warmup} warm-up and ${size.batches} measured batches`);
    const batches: BatchCost[] = [];
    for (let i = 0; i < size.warmup + size.batches; i++) {
      const cost = await measureBatch(page, cdp, publish);
      if (i >= size.warmup) batches.push(cost);
      await sleep(size.gapMs);
    }
    const idle = await measureBatch(page, cdp, undefined);
    // Rows that were off screen show the last batch once scrolled to.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await sleep(500);
    const last = Object.fromEntries(tickBatch(symbols, seq).quotes.map((q) => [q.symbol, q.ltp]));
    const scrolled = await rowsShowing(page, last);
    if (errors.length) throw new Error(`the page threw: ${errors.slice(0, 3).join('; ')}`);
    return {
      rowsLoaded,
      batches,
      idle,
      scrolled: { rowsInView: scrolled.inView, rowsUpdated: scrolled.updated },
    };
  } finally {
    await browser.close();
  }
}

export const b6: Benchmark<B6Evidence> = {
  id: 'B6',
  title: 'Client: a tick batch on a 1,000-holding page, and the initial JavaScript',
  async run(ctx: BenchContext) {
    const size = ctx.quick ? B6_SIZES.quick : B6_SIZES.full;
    const dist = requireBuiltClient();
    const initialJs = await initialJavaScript(dist);
    const database = await freshDatabase(ctx.postgresUrl);
    let page: Awaited<ReturnType<typeof measurePage>>;
    try {
      const runtime = await startApp(database.url, dist);
      try {
        page = await measurePage(runtime, size, ctx.log);
      } finally {
        await runtime.close();
      }
    } finally {
      await database.drop();
    }
    const scriptMs = round(median(page.batches.map((b) => b.scriptMs)), 1);
    const kb = round(initialJs.gzipBytes / 1024, 1);
    const med = (pick: (b: BatchCost) => number) => round(median(page.batches.map(pick)), 1);
    return {
      results: [
        result({
          id: 'B6-batch',
          name: `Client scripting time per tick batch, Holdings page with ${size.holdings.toLocaleString('en-US')} holdings (headless Chromium)`,
          value: scriptMs,
          unit: 'ms',
          baseline: null,
          target: '< 16 ms',
          pass: scriptMs < 16,
        }),
        result({
          id: 'B6-initial-js',
          name: 'Initial JavaScript of the landing page (entry + modulepreloads, gzip)',
          value: kb,
          unit: 'KB',
          baseline: null,
          target: '≤ 200 KB',
          pass: kb <= 200,
        }),
      ],
      notes: [
        `B6: median of ${size.batches} batches after ${size.warmup} warm-up, each a full ${size.instruments}-quote batch ` +
          `(every holding's price moves); renderer ScriptDuration from before publishing until the page was still for 150 ms; ` +
          `also layout ${med((b) => b.layoutMs)} ms and style ${med((b) => b.styleMs)} ms per batch, ` +
          `${page.batches.reduce((n, b) => n + b.longTasks, 0)} long tasks in all, slowest batch ${round(Math.max(...page.batches.map((b) => b.scriptMs)), 1)} ms; ` +
          `${med((b) => b.rows)} rows in the document, ${med((b) => b.rowsInView)} in view (scrolled to the middle of the table; rows off screen update as they scroll in); measuring alone: ${round(page.idle.scriptMs, 1)} ms. ` +
          `Initial JavaScript: ${initialJs.files.length} files, ${round(initialJs.bytes / 1024, 1)} KB raw, ${kb} KB gzip.`,
      ],
      evidence: {
        size,
        rowsLoaded: page.rowsLoaded,
        batches: page.batches,
        idle: page.idle,
        scrolled: page.scrolled,
        initialJs,
      },
    };
  },
};
