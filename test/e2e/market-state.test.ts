/**
 * One market state for every user (issue 28, item 14): the header says where prices come from
 * and how current they are from the feed the server describes to every tab, not from the
 * user's own holdings, and a phone shows words, not only a coloured dot.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { DESKTOP, PHONE, screenshot, type Viewport } from '../helpers/browser.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { addHolding } from '../server/rules/support.ts';
import { pageErrors, replayCsv, signedInContext } from './support.ts';

/** Noon IST of the last Sunday: the market is closed all day. */
function lastSundayNoon(now = Date.now()): number {
  const day = new Date(now + 5.5 * 3_600_000).getUTCDay();
  const sunday = new Date(now - (day === 0 ? 7 : day) * 86_400_000);
  return Date.parse(`${sunday.toISOString().slice(0, 10)}T12:00:00+05:30`);
}

/** The header's words for `user` on the Dashboard, once the first batch has arrived. */
async function headerSays(
  browser: Browser,
  app: TestApp,
  user: SignedInUser,
  viewport: Viewport,
  at?: number,
): Promise<{ page: Page; label: string; visible: string }> {
  const context = await signedInContext(browser, app, user, viewport);
  const page = await context.newPage();
  if (at !== undefined) await page.clock.setFixedTime(at);
  await page.goto(`${app.url}/dashboard`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.locator('.live-indicator:not([data-tone="pending"])').waitFor({ timeout: 15_000 });
  // A batch after the page opened: each tab has heard the feed by then.
  await page.waitForTimeout(1_200);
  const indicator = page.locator('.live-indicator');
  return {
    page,
    label: await indicator.locator('.live-label').innerText(),
    visible: await indicator.locator('.live-label, .live-label-short').evaluateAll((els) =>
      els
        .filter((el) => (el as HTMLElement).offsetWidth > 0)
        .map((el) => (el as HTMLElement).innerText)
        .join(' | '),
    ),
  };
}

describe('e2e: one market state for every user (issue 28, item 14)', function () {
  this.timeout(120_000);

  describe('the demo market', () => {
    let app: TestApp;
    let browser: Browser;
    before(async () => {
      ({ app, browser } = await startBrowserSuite({
        env: { QUOTE_PROVIDER: 'simulated', QUOTE_INTERVAL_MS: '300' },
      }));
    });
    after(async () => stopBrowserSuite({ app, browser }));

    it("says 'Simulated prices' to a user with holdings and to a new user alike, in words on a phone", async () => {
      const holder = await signIn(app, { name: 'Meera Holder' });
      await addHolding(app, holder, 'RELIANCE', 10, 1300);
      const newcomer = await signIn(app, { name: 'Nikhil New' });
      const seen: Record<string, string> = {};
      for (const [who, user] of [
        ['holder', holder],
        ['newcomer', newcomer],
      ] as const) {
        const desktop = await headerSays(browser, app, user, DESKTOP);
        const errors = pageErrors(desktop.page);
        seen[`${who} 1280`] = desktop.label;
        expect(desktop.visible, 'the words shown at 1280 px').to.equal('Simulated prices');
        await screenshot(desktop.page, `market-state-simulated-${who}-1280`);
        const phone = await headerSays(browser, app, user, PHONE);
        seen[`${who} 375`] = phone.label;
        expect(phone.visible, 'a phone shows words, not only a dot').to.equal('Simulated');
        await screenshot(phone.page, `market-state-simulated-${who}-375`);
        expect(errors).to.deep.equal([]);
      }
      expect(seen).to.deep.equal({
        'holder 1280': 'Simulated prices',
        'holder 375': 'Simulated prices',
        'newcomer 1280': 'Simulated prices',
        'newcomer 375': 'Simulated prices',
      });
    });
  });

  describe('an exchange feed', () => {
    let app: TestApp;
    let browser: Browser;
    before(async () => {
      ({ app, browser } = await startBrowserSuite({
        replay: { csv: replayCsv([['RELIANCE', 1310, 1300]]), intervalMs: 300 },
      }));
    });
    after(async () => stopBrowserSuite({ app, browser }));

    it('says the same to a user without holdings as to one with them, on a Sunday too', async () => {
      const holder = await signIn(app);
      await addHolding(app, holder, 'RELIANCE', 10, 1300);
      const newcomer = await signIn(app);
      const sunday = lastSundayNoon();
      const holderSees = await headerSays(browser, app, holder, DESKTOP, sunday);
      const newcomerSees = await headerSays(browser, app, newcomer, DESKTOP, sunday);
      expect({ holder: holderSees.label, newcomer: newcomerSees.label }).to.deep.equal({
        holder: 'Live',
        newcomer: 'Live',
      });
    });
  });
});
