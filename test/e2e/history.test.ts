/**
 * Rule Execution History in Chromium against the real app (docs/exit-rules.md,
 * History): the period select drives the request, the empty state, rows from the
 * database with their status colours, paging, the phone layout and the load failure.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { CORPORATE_ACTION_EXECUTION } from '@app/common/corporate-actions/describe';
import { REARM_EXECUTION } from '@app/common/rules/rearm';
import { ruleExecutions } from '../../server/src/db/schema.ts';
import { recordDigest } from '../../server/src/digest/record.ts';
import type { TestApp } from '../helpers/app.ts';
import { assertNoHorizontalScroll, PHONE, screenshot } from '../helpers/browser.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { openSignedIn, pageErrors } from './support.ts';

const DAY_MS = 86_400_000;

/** Watches the page's `GET /api/rule-executions` calls. */
function recordHistoryRequests(page: Page): URL[] {
  const seen: URL[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname === '/api/rule-executions') seen.push(url);
  });
  return seen;
}

function spanDays(url: URL): number {
  const start = Date.parse(url.searchParams.get('start_date')!);
  const end = Date.parse(url.searchParams.get('end_date')!);
  return Math.round((end - start) / DAY_MS);
}

async function insertExecutions(
  app: TestApp,
  user: SignedInUser,
  rows: {
    symbol: string;
    status: string;
    minutesAgo: number;
    message?: string | null;
    executionType?: string;
  }[],
) {
  await app.runtime.deps.db.insert(ruleExecutions).values(
    rows.map((row) => ({
      userId: user.id,
      symbol: row.symbol,
      exchange: 'NSE' as const,
      triggerType: 'TRAILING_STOP_LOSS',
      status: row.status,
      triggerPrice: '2697.0000',
      executionPrice: '2690.5000',
      message: row.message ?? null,
      ...(row.executionType ? { executionType: row.executionType } : {}),
      executedAt: new Date(Date.now() - row.minutesAgo * 60_000),
    })),
  );
}

describe('e2e: History', function () {
  this.timeout(60_000);
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    ({ app, browser } = await startBrowserSuite());
  });
  after(() => stopBrowserSuite({ app, browser }));

  it('shows the empty state, and asks for the last 7, 30 or 90 days', async () => {
    const user = await signIn(app);
    const page = await openSignedIn(browser, app, user, '/privacy');
    const requests = recordHistoryRequests(page);
    await page.goto(`${app.url}/history`);
    await page.getByRole('heading', { level: 1, name: 'Rule Execution History' }).waitFor();
    await page.getByRole('heading', { name: 'No executions found' }).waitFor();
    expect(await page.getByRole('link', { name: 'Set up Rules' }).getAttribute('href')).to.equal('/holdings');
    const select = page.getByLabel('Time Period');
    expect(await select.inputValue()).to.equal('30');
    expect(await select.locator('option').allInnerTexts()).to.deep.equal([
      'Last 7 days',
      'Last 30 days',
      'Last 90 days',
    ]);
    expect(requests).to.have.length(1);
    expect(requests[0]!.searchParams.get('limit')).to.equal('100');
    expect(requests[0]!.searchParams.get('offset')).to.equal('0');
    expect(Math.abs(Date.parse(requests[0]!.searchParams.get('end_date')!) - Date.now())).to.be.below(60_000);
    expect(spanDays(requests[0]!)).to.equal(30);

    await select.selectOption('7');
    await page.waitForFunction(() => document.body.innerText.includes('in the last 7 days'));
    await select.selectOption('90');
    await page.waitForFunction(() => document.body.innerText.includes('in the last 90 days'));
    expect(requests.map(spanDays)).to.deep.equal([30, 7, 90]);
    await page.setViewportSize(PHONE);
    await assertNoHorizontalScroll(page);
    await screenshot(page, 'history-empty-phone');
  });

  it('lists executions from the database, newest first, coloured by status', async () => {
    const user = await signIn(app);
    await insertExecutions(app, user, [
      { symbol: 'RELIANCE', status: 'SUCCESS', minutesAgo: 5, message: 'Alert sent to 1 endpoint' },
      { symbol: 'TCS', status: 'FAILED', minutesAgo: 60, message: 'Email could not be delivered' },
      { symbol: 'INFY', status: 'PENDING', minutesAgo: 120 },
      { symbol: 'OLDCO', status: 'SUCCESS', minutesAgo: 40 * 24 * 60 },
    ]);
    const page = await openSignedIn(browser, app, user, '/history');
    const errors = pageErrors(page);
    const table = page.getByRole('table');
    await table.getByRole('row').nth(3).waitFor();
    const headers = await table.getByRole('columnheader').allInnerTexts();
    expect(headers).to.deep.equal(['Symbol', 'Rule Type', 'Triggered At', 'Status', 'Message']);
    const body = table.locator('tbody tr');
    expect(await body.count(), 'the 40-day-old row is outside the last 30 days').to.equal(3);
    expect(await body.locator('th').allInnerTexts()).to.deep.equal([
      'RELIANCE\nNSE',
      'TCS\nNSE',
      'INFY\nNSE',
    ]);

    const first = body.nth(0);
    expect(await first.innerText())
      .to.contain('Trailing stop loss')
      .and.contain('₹2,697.00')
      .and.contain('₹2,690.50');
    expect(await first.innerText(), 'the kind in words, not shouted').to.not.contain('TRAILING');
    const triggered = await first.locator('time').innerText();
    expect(triggered).to.match(/^\d{2}\/\d{2}\/\d{4}\n\d{2}:\d{2}:\d{2}$/);
    const tones = await body
      .locator('.execution-status')
      .evaluateAll((badges) =>
        badges.map((b) => `${b.textContent} ${b.className.match(/badge-(gain|loss|warning)/)?.[1]}`),
      );
    expect(tones, 'statuses in words').to.deep.equal(['Alert sent gain', 'Not sent loss', 'Sending warning']);
    expect(await body.nth(2).innerText()).to.contain('No additional details');
    await page.getByText('Showing 3 of 3 executions').waitFor();
    expect(await page.getByRole('button', { name: 'Load more' }).count()).to.equal(0);

    await page.getByLabel('Time Period').selectOption('90');
    await page.getByText('Showing 4 of 4 executions').waitFor();
    await screenshot(page, 'history-desktop');

    for (const width of [PHONE.width, 360]) {
      await page.setViewportSize({ width, height: PHONE.height });
      await assertNoHorizontalScroll(page);
    }
    await page.setViewportSize(PHONE);
    expect(await page.getByRole('table').isVisible()).to.equal(false);
    const cards = page.getByRole('list', { name: 'Rule executions, newest first' }).getByRole('listitem');
    expect(await cards.count()).to.equal(4);
    expect(await cards.first().innerText())
      .to.contain('RELIANCE')
      .and.contain('Alert sent');
    await screenshot(page, 'history-phone');
    expect(errors).to.deep.equal([]);
  });

  it("shows any status other than SUCCESS or FAILED in yellow, 'In-app only' included", async () => {
    const user = await signIn(app);
    await insertExecutions(app, user, [
      { symbol: 'ITC', status: 'IN_APP_ONLY', minutesAgo: 3, message: 'Monthly alert limit reached' },
      { symbol: 'LT', status: 'RETRYING', minutesAgo: 4 },
    ]);
    const page = await openSignedIn(browser, app, user, '/history');
    const badges = page.locator('tbody .execution-status');
    await badges.nth(1).waitFor();
    const shown = await badges.evaluateAll((items) =>
      items.map((b) => [b.textContent, b.className.match(/badge-(gain|loss|warning|neutral)/)?.[1]]),
    );
    expect(shown).to.deep.equal([
      ['In-app only', 'warning'],
      ['Retrying', 'warning'],
    ]);
    const colours = await badges.evaluateAll((items) =>
      items.map((b) => getComputedStyle(b).backgroundColor),
    );
    const pending = await page.evaluate(() => {
      const probe = document.createElement('span');
      probe.className = 'badge badge-warning';
      document.body.append(probe);
      const colour = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return colour;
    });
    expect(colours).to.deep.equal([pending, pending]);
  });

  it("shows an evening digest as 'Evening digest' with its status and summary, and no prices", async () => {
    const user = await signIn(app);
    await insertExecutions(app, user, [{ symbol: 'RELIANCE', status: 'SUCCESS', minutesAgo: 30 }]);
    // Recorded by the digest's own path (its email goes to the outbox and succeeds).
    const digest = await recordDigest(
      { ...app.runtime.deps, deliveries: app.runtime.deliveries },
      { userId: user.id, day: '2025-12-18', nextDay: '2025-12-19' },
    );
    expect(digest?.deliveryIds).to.have.length(1);
    const page = await openSignedIn(browser, app, user, '/history');
    const errors = pageErrors(page);
    const first = page.locator('tbody tr').first();
    await first.locator('.execution-status').getByText('Sent', { exact: true }).waitFor();
    expect(await first.locator('th').innerText()).to.equal('Evening digest');
    expect(await first.getByRole('list', { name: 'Deliveries' }).innerText()).to.equal('Email sent');
    const text = await first.innerText();
    expect(text)
      .to.contain(
        'Evening digest: 0 active rules, 0 firings today, 0 corporate actions on the next trading day.',
      )
      .and.not.contain('₹');
    await page.setViewportSize(PHONE);
    const card = page
      .getByRole('list', { name: 'Rule executions, newest first' })
      .getByRole('listitem')
      .first();
    expect(await card.innerText())
      .to.contain('Evening digest')
      .and.not.contain('Hit at')
      .and.not.contain('₹');
    expect(errors).to.deep.equal([]);
  });

  it("names a re-arm's and a corporate action's prices the same way in the table and on a phone's cards", async () => {
    const user = await signIn(app);
    await insertExecutions(app, user, [
      { symbol: 'RELIANCE', status: 'IN_APP_ONLY', minutesAgo: 5, executionType: REARM_EXECUTION },
      { symbol: 'TCS', status: 'IN_APP_ONLY', minutesAgo: 10, executionType: CORPORATE_ACTION_EXECUTION },
      { symbol: 'INFY', status: 'SUCCESS', minutesAgo: 15 },
    ]);
    const page = await openSignedIn(browser, app, user, '/history');
    await page.locator('tbody tr').nth(2).waitFor();
    const rows = await page.locator('tbody tr .execution-prices').allInnerTexts();
    const expected = [
      ['Re-arm price', '₹2,697.00', 'Hit at', '₹2,690.50'],
      ['Adjusted', '₹2,697.00 → ₹2,690.50'],
      ['Trigger', '₹2,697.00', 'Hit at', '₹2,690.50'],
    ];
    expect(rows.map((text) => text.replace(/\s+/g, ' ').trim())).to.deep.equal(
      expected.map((line) =>
        line.length === 4 ? `${line[0]} ${line[1]} · ${line[2]} ${line[3]}` : line.join(' '),
      ),
    );
    await page.setViewportSize(PHONE);
    const cards = page.getByRole('list', { name: 'Rule executions, newest first' }).getByRole('listitem');
    await cards.first().waitFor();
    for (const [i, line] of expected.entries()) {
      const details = cards.nth(i).locator('dl > div:not(.execution-card-message)');
      const pairs = await details.evaluateAll((divs) =>
        divs
          .slice(2)
          .flatMap((div) => [div.querySelector('dt')!.textContent, div.querySelector('dd')!.textContent]),
      );
      expect(pairs).to.deep.equal(line);
    }
    await assertNoHorizontalScroll(page);
    await screenshot(page, 'history-prices-phone');
  });

  it('pages with Load more when there are more than 100', async () => {
    const user = await signIn(app);
    await insertExecutions(
      app,
      user,
      Array.from({ length: 105 }, (_, i) => ({ symbol: `SYM${i}`, status: 'SUCCESS', minutesAgo: i + 1 })),
    );
    const page = await openSignedIn(browser, app, user, '/history');
    await page.getByText('Showing 100 of 105 executions').waitFor();
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByText('Showing 105 of 105 executions').waitFor();
    expect(await page.getByRole('button', { name: 'Load more' }).count()).to.equal(0);
    expect(await page.locator('tbody th').last().innerText()).to.contain('SYM104');
  });

  it('says when the history could not be loaded, and loads it on Try again', async () => {
    const user = await signIn(app);
    const page = await openSignedIn(browser, app, user, '/privacy');
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/api/rule-executions?**', async (route) => {
      await answered;
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false}' });
    });
    await page.goto(`${app.url}/history`);
    await page.getByRole('status').filter({ hasText: 'Loading execution history...' }).waitFor();
    answer();
    await page.getByRole('alert').filter({ hasText: 'Failed to load history' }).waitFor();
    await page.unroute('**/api/rule-executions?**');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'No executions found' }).waitFor();
    expect(await page.getByRole('alert').count()).to.equal(0);
  });
});
