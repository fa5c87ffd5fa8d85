/**
 * A bonus in Chromium against the real app: after LALPATHLAB's 1:1 bonus (the real bc row) is
 * applied, the holding's rules say "Adjusted for 1:1 bonus on 19 Dec 2025" beside the halved
 * levels, and the holding carries the bonus notice, at 1280 and 375 px without sideways
 * scrolling; screenshots into test-results/screenshots (docs/ with UPDATE_DOCS_SCREENSHOTS=1).
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { syncCorporateActions } from '../../server/src/corporate-actions/sync.ts';
import type { TestApp } from '../helpers/app.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { assertNoHorizontalScroll, DESKTOP, PHONE } from '../helpers/browser.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { bcText, forgetActions, testClock } from '../server/corporate-actions/support.ts';
import { addHolding, forgetUsers, publishPrices } from '../server/rules/support.ts';
import { createRuleOncePriced, docsScreenshot, pageErrors, replayCsv, signedInContext } from './support.ts';

describe('e2e: a rule adjusted for a bonus', function () {
  this.timeout(120_000);
  let app: TestApp;
  let browser: Browser;
  let user: SignedInUser;
  // The rules are set on 18 Dec 2025, before the ex-date (only what was set before its open is adjusted).
  const clock = testClock('2025-12-18T15:00:00');

  before(async () => {
    ({ app, browser } = await startBrowserSuite({
      // Its own database: apps of other workers would apply the file's actions by their clocks.
      ownDatabase: true,
      now: clock.now,
      replay: { csv: replayCsv([['LALPATHLAB', 3010, 2995]]), intervalMs: 600_000 },
    }));
    await forgetActions(app);
    user = await signIn(app, { name: 'Meera Iyer' });
    await addHolding(app, user, 'LALPATHLAB', 10, 2950);
    // Rules arm from the replayed quote.
    await createRuleOncePriced(app, user, {
      symbol: 'LALPATHLAB',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 8,
    });
    await createRuleOncePriced(app, user, {
      symbol: 'LALPATHLAB',
      trigger_type: 'TAKE_PROFIT',
      trigger_value: 20,
    });
    // The file is read after the ex-date (19 Dec 2025), on the 22nd: the bonus is applied at once.
    clock.set('2025-12-22T10:00:00');
    await syncCorporateActions(app.runtime.deps.db, { text: bcText(), source: 'e2e', today: '2025-12-22' });
    const applied = await app.runtime.corporateActions.runOnce();
    expect(applied.map((a) => a.action.symbol)).to.include('LALPATHLAB');
    // The ex-bonus session's price.
    await publishPrices(app, { LALPATHLAB: 1510 });
  });

  after(async () => {
    // The run's PostgreSQL database is shared: leave no LALPATHLAB holding or rule for later tests.
    if (app && user) await forgetUsers(app, [user]);
    if (app) await forgetActions(app);
    await stopBrowserSuite({ app, browser });
  });

  for (const [name, viewport] of [
    ['1280', { ...DESKTOP, height: 900 }],
    ['375', PHONE],
  ] as const) {
    it(`shows the adjustment on the rule and the notice on the holding at ${name} px`, async () => {
      const context = await signedInContext(browser, app, user, viewport);
      const page = await context.newPage();
      const errors = pageErrors(page);
      await page.goto(`${app.url}/holdings`);
      const holding = page.locator('[data-symbol="LALPATHLAB"]').first();
      await holding.locator('.expand-button').first().click();
      const rules = page.getByRole('group', { name: 'Rules for LALPATHLAB (NSE)' });
      // 3010 × 0.92 = 2769.20 and 3010 × 1.2 = 3612.00 before the bonus, half of each now.
      await rules.getByText('₹1,384.60').waitFor();
      await rules.getByText('₹1,806.00').waitFor();
      const notes = rules.locator('.rule-adjusted');
      expect(await notes.allInnerTexts()).to.deep.equal([
        'Adjusted for 1:1 bonus on 19 Dec 2025',
        'Adjusted for 1:1 bonus on 19 Dec 2025',
      ]);
      expect(await rules.locator('.holding-notice').innerText()).to.equal(
        '1:1 bonus on 19 Dec 2025: quantity and buy price adjusted, and your rule levels with them.',
      );
      await assertNoHorizontalScroll(page);
      await rules.scrollIntoViewIfNeeded();
      await docsScreenshot(page, `corporate-action-rule-${name}.png`);
      expect(errors).to.deep.equal([]);
      await context.close();
    });
  }
});
