/**
 * Price Guard's timing and its review, a draft's own Save and Cancel, then Manage Position Rules'
 * bulk Disable, bulk Delete and per-rule Delete, in Chromium against the real app
 * (docs/exit-rules.md). Every change is checked on screen and in `GET /api/position-rules`. Eleven
 * holdings carry a rule; WIPRO, last in the table and below the fold, does not.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { ApiPositionRule } from '@app/common/api/rules';
import type { TestApp } from '../helpers/app.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { apiClient } from '../helpers/http.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { keepOpen } from '../helpers/open-contexts.ts';
import { addHolding } from '../server/rules/support.ts';
import { createRuleOncePriced, openSignedIn, pageErrors, replayCsv } from './support.ts';

const GUARDED = [
  'ASIANPAINT',
  'AXISBANK',
  'BHARTIARTL',
  'CIPLA',
  'HCLTECH',
  'HDFCBANK',
  'ICICIBANK',
  'INFY',
  'ITC',
  'LT',
  'SBIN',
];
const UNGUARDED = 'WIPRO';
const PRICE = 1000;

/** Price Guard's moments in page time (performance.now()), recorded by an init script. */
interface GuardTimes {
  cleaned?: number;
  modalAt200?: boolean;
  modal?: number;
}

/** Records when magic-setup leaves the address and when the modal opens. */
function recordGuardTimes(): void {
  const times: GuardTimes = {};
  (window as unknown as { guardTimes: GuardTimes }).guardTimes = times;
  const replace = history.replaceState.bind(history);
  history.replaceState = (...args: Parameters<History['replaceState']>) => {
    const hadParam = location.search.includes('magic-setup');
    replace(...args);
    if (hadParam && !location.search.includes('magic-setup') && times.cleaned === undefined) {
      times.cleaned = performance.now();
      // The page's 0.5 s timer starts in the same task, after this one: it cannot fire first.
      setTimeout(() => {
        times.modalAt200 = Boolean(document.querySelector('dialog[open]'));
      }, 200);
    }
  };
  new MutationObserver(() => {
    if (times.modal === undefined && document.querySelector('dialog[open]')) times.modal = performance.now();
  }).observe(document, { subtree: true, childList: true, attributes: true });
}

function guardTimes(page: Page): Promise<GuardTimes> {
  return page.evaluate(() => (window as unknown as { guardTimes: GuardTimes }).guardTimes);
}

/** Whether the element is inside the viewport. */
function inViewport(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  });
}

describe('e2e: Price Guard timings, draft Save and Cancel, Manage Position Rules', function () {
  this.timeout(120_000);
  let app: TestApp;
  let browser: Browser;
  let user: SignedInUser;
  let page: Page;
  let errors: string[];

  const rulesOf = async () =>
    (await apiClient(app.url).get<ApiPositionRule[]>('/api/position-rules', user.token)).body.data!;

  before(async () => {
    ({ app, browser } = await startBrowserSuite({
      // Its own database: the engines of other workers' apps load every rule of a shared one and
      // would fire these stops with their own prices of the same stocks.
      ownDatabase: true,
      replay: { csv: replayCsv([...GUARDED, UNGUARDED].map((s) => [s, PRICE, PRICE])), intervalMs: 300 },
    }));
    user = await signIn(app, { name: 'Farah Khan' });
    for (const symbol of [...GUARDED, UNGUARDED]) await addHolding(app, user, symbol, 10, 900);
    // Rules need a quote: the first replay batch follows the watch set.
    for (const symbol of GUARDED) {
      await createRuleOncePriced(app, user, {
        symbol,
        exchange: 'NSE',
        rule_name: `${symbol} stop`,
        trigger_type: 'FIXED_STOP_LOSS',
        trigger_value: 5,
      });
    }
  });

  after(async () => {
    await stopBrowserSuite({ app, browser });
  });

  it('disables the Price Guard button for a user without holdings', async () => {
    const newcomer = await signIn(app, { name: 'No Holdings Yet' });
    const empty = await openSignedIn(browser, app, newcomer, '/holdings');
    await empty.getByRole('heading', { name: 'No holdings yet' }).waitFor();
    const guard = empty
      .getByRole('group', { name: 'Holdings actions' })
      .getByRole('button', { name: 'Price Guard' });
    expect(await guard.isDisabled()).to.equal(true);
    expect(await guard.getAttribute('title')).to.equal('Add holdings first, then set up rules');
    await empty.context().close();
  });

  it('opens the modal 0.5 s after ?magic-setup=true leaves the address, not before', async () => {
    // The tests after this one go on with its page.
    const context = keepOpen(await browser.newContext({ viewport: { width: 1280, height: 800 } }));
    await context.addInitScript(recordGuardTimes);
    await context.addInitScript(
      ([token, refresh]) => {
        localStorage.setItem('auth_token', token!);
        localStorage.setItem('refresh_token', refresh!);
      },
      [user.token, user.refreshToken],
    );
    page = await context.newPage();
    errors = pageErrors(page);
    await page.goto(`${app.url}/holdings?magic-setup=true`);
    const modal = page.getByRole('dialog', { name: 'Price Guard - Smart Protection' });
    await modal.waitFor();
    const times = await guardTimes(page);
    expect(times.modalAt200, 'no modal 200 ms after the address was cleaned').to.equal(false);
    expect(times.modal! - times.cleaned!).to.be.at.least(490);
    expect(new URL(page.url()).search).to.equal('');
    await modal.getByText('1 holding will get a draft rule.').waitFor();
  });

  it('reviews WIPRO, below the fold, in a compact list without opening its row', async () => {
    const row = `tr.holding-row[data-symbol="${UNGUARDED}"]`;
    await page.locator(row).waitFor();
    expect(await inViewport(page, row), `${UNGUARDED} starts below the fold`).to.equal(false);
    await page.getByRole('dialog').getByRole('button', { name: 'Price Guard' }).click();
    const review = page.getByRole('dialog', { name: 'Review Price Guard rules' });
    const line = review.locator(`tbody tr[data-symbol="${UNGUARDED}"]`);
    await line.getByText('₹930.00').waitFor();
    await line.getByText('7.0% away').waitFor();
    expect(await review.locator('tbody tr').count()).to.equal(1);
    expect(
      await review.getByRole('checkbox', { name: `Protect ${UNGUARDED} in Manual` }).isChecked(),
    ).to.equal(true);
    expect(await page.locator('form.rule-draft').count()).to.equal(0);
    expect(await page.locator(`${row} .expand-button`).getAttribute('aria-expanded')).to.equal('false');
    // Cancel leaves it as it was: no rule, no draft.
    await review.getByRole('button', { name: 'Cancel' }).click();
    await review.waitFor({ state: 'detached' });
    expect(await page.locator('form.rule-draft').count()).to.equal(0);
    expect((await rulesOf()).filter((r) => r.symbol === UNGUARDED)).to.deep.equal([]);
  });

  it('cancels a draft with its own Cancel, then saves a new one with its own Save', async () => {
    await page.locator(`tr.holding-row[data-symbol="${UNGUARDED}"] .expand-button`).click();
    const rules = page.getByRole('group', { name: `Rules for ${UNGUARDED} (NSE)` });
    await rules.getByRole('button', { name: `Add a rule for ${UNGUARDED} (NSE)` }).click();
    await rules.getByRole('form').getByRole('button', { name: 'Cancel' }).click();
    await rules.getByRole('form').waitFor({ state: 'detached' });
    await rules.getByText('No rules yet: this holding is not guarded.').waitFor();
    expect((await rulesOf()).filter((r) => r.symbol === UNGUARDED)).to.deep.equal([]);

    await rules.getByRole('button', { name: `Add a rule for ${UNGUARDED} (NSE)` }).click();
    const draft = rules.getByRole('form', { name: `New rule for ${UNGUARDED} (NSE)` });
    expect(await draft.getByLabel('Trigger value').inputValue()).to.equal('7');
    await draft.getByText('Alert when the price falls to ₹930.00', { exact: false }).waitFor();
    await draft.getByRole('button', { name: 'Save', exact: true }).click();
    await draft.waitFor({ state: 'detached' });
    await rules.locator('.rule-status').getByText('Active', { exact: true }).waitFor();
    const saved = (await rulesOf()).filter((r) => r.symbol === UNGUARDED);
    expect(
      saved.map((r) => [r.trigger_type, Number(r.trigger_value), r.value_type, r.is_active]),
    ).to.deep.equal([['TRAILING_STOP_LOSS', 7, 'PERCENT', true]]);
    expect(Number(saved[0]!.computed_trigger_price)).to.equal(930);
  });

  it('bulk-disables and bulk-deletes selected rules in Manage Position Rules', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('button', { name: 'Manage Rules' }).click();
    const dialog = page.getByRole('dialog', { name: 'Manage Position Rules' });
    const picked = ['ASIANPAINT', 'AXISBANK'];
    for (const symbol of picked) {
      await dialog
        .locator('.manage-row', { hasText: `${symbol} stop` })
        .getByRole('checkbox')
        .check();
    }
    await dialog.getByText('2 selected').waitFor();
    const bulk = dialog.getByRole('group', { name: 'Selected rules' });
    await bulk.getByRole('button', { name: 'Disable' }).click();
    await dialog.getByText('2 rules disabled.').waitFor();
    for (const symbol of picked) {
      await dialog
        .locator('.manage-row', { hasText: `${symbol} stop` })
        .getByText('Inactive', { exact: true })
        .waitFor();
    }
    const afterDisable = await rulesOf();
    expect(
      afterDisable
        .filter((r) => !r.is_active)
        .map((r) => r.symbol)
        .sort(),
    ).to.deep.equal(picked);

    for (const symbol of picked) {
      await dialog
        .locator('.manage-row', { hasText: `${symbol} stop` })
        .getByRole('checkbox')
        .check();
    }
    await bulk.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete 2 rules?' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await dialog.getByText('2 rules deleted.').waitFor();
    for (const symbol of picked) {
      await dialog.locator('.manage-row', { hasText: `${symbol} stop` }).waitFor({ state: 'detached' });
    }
    const left = (await rulesOf()).map((r) => r.symbol);
    expect(left.filter((s) => picked.includes(s))).to.deep.equal([]);
    expect(left).to.have.length(GUARDED.length - picked.length + 1);
  });

  it('deletes one rule with its own Delete in Manage Position Rules', async () => {
    const dialog = page.getByRole('dialog', { name: 'Manage Position Rules' });
    const row = dialog.locator('.manage-row', { hasText: 'CIPLA stop' });
    await row.getByRole('button', { name: 'Delete CIPLA: CIPLA stop' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this rule?' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await row.waitFor({ state: 'detached' });
    expect((await rulesOf()).some((r) => r.symbol === 'CIPLA')).to.equal(false);
    expect(await dialog.locator('.manage-row', { hasText: 'BHARTIARTL stop' }).count()).to.equal(1);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(errors).to.deep.equal([]);
  });
});
