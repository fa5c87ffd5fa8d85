/**
 * How a tab reaches the live feed: over a WebSocket from the first request (docs/live-prices.md:
 * no sticky sessions needed behind a load balancer), and over long-polling only where a
 * WebSocket cannot open, still Live and still moving prices.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { addHolding } from '../server/rules/support.ts';
import { pageErrors, signedInContext } from './support.ts';

const LTP = 'tr.holding-row[data-symbol="RELIANCE"] [data-col="ltp"] [data-live-value]';

/** The Socket.IO traffic of a page: long-polling requests and WebSocket addresses. */
function watchTransports(page: Page): { polling: string[]; webSockets: string[] } {
  const seen = { polling: [] as string[], webSockets: [] as string[] };
  page.on('request', (req) => {
    if (req.url().includes('/socket.io/') && req.url().includes('transport=polling'))
      seen.polling.push(req.url());
  });
  page.on('websocket', (ws) => seen.webSockets.push(ws.url()));
  return seen;
}

/** Waits for the connected header (the demo market's 'Simulated prices') and a moving RELIANCE price. */
async function expectLivePrices(page: Page): Promise<void> {
  await page.locator('.live-indicator[data-tone="simulated"]').waitFor({ timeout: 15_000 });
  expect(await page.locator('.live-label').innerText()).to.equal('Simulated prices');
  const first = await page.locator(LTP).getAttribute('data-live-value', { timeout: 15_000 });
  await page.waitForFunction(
    ([selector, before]) => {
      const now = document.querySelector(selector!)?.getAttribute('data-live-value');
      return Boolean(now) && now !== before;
    },
    [LTP, first] as const,
    { timeout: 15_000 },
  );
}

describe('e2e: the live connection’s transport', function () {
  this.timeout(90_000);
  let app: TestApp;
  let browser: Browser;
  let user: SignedInUser;

  before(async () => {
    ({ app, browser } = await startBrowserSuite({ env: { QUOTE_INTERVAL_MS: '300' } }));
    user = await signIn(app);
    await addHolding(app, user, 'RELIANCE', 10, 1300);
  });

  after(async () => {
    await stopBrowserSuite({ app, browser });
  });

  it('connects over a WebSocket from the first request, with no long-polling', async () => {
    const context = await signedInContext(browser, app, user);
    const page = await context.newPage();
    const errors = pageErrors(page);
    const seen = watchTransports(page);
    await page.goto(`${app.url}/holdings`);
    await expectLivePrices(page);
    expect(seen.polling, 'long-polling requests').to.deep.equal([]);
    expect(seen.webSockets).to.have.length(1);
    expect(seen.webSockets[0]).to.match(/\/socket\.io\/\?EIO=4&transport=websocket$/);
    expect(errors).to.deep.equal([]);
    await context.close();
  });

  it('falls back to long-polling where a WebSocket cannot open, and still shows Live prices', async () => {
    const context = await signedInContext(browser, app, user);
    // As behind a proxy that refuses upgrades: every WebSocket fails before it opens.
    // (A string: the test's compiled TypeScript may use helpers the page does not have.)
    await context.addInitScript(`
      window.WebSocket = class RefusedWebSocket extends EventTarget {
        constructor() {
          super();
          this.readyState = 0;
          setTimeout(() => {
            this.readyState = 3;
            this.onerror?.(new Event('error'));
            this.onclose?.(new CloseEvent('close', { code: 1006 }));
          }, 10);
        }
        send() {}
        close() {}
      };
    `);
    const page = await context.newPage();
    const errors = pageErrors(page);
    const seen = watchTransports(page);
    await page.goto(`${app.url}/holdings`);
    await expectLivePrices(page);
    expect(seen.polling.length, 'long-polling requests').to.be.greaterThan(0);
    expect(errors).to.deep.equal([]);
    await context.close();
  });
});
