/**
 * Where each alert went, in History (docs/notifications.md#where-each-alert-went), in Chromium
 * against the real app: a badge per channel ('Email sent', 'Push failed') on the table and the
 * phone's cards, the details list (where to, status, IST time, the error), the badges following a
 * settle without a reload, accessible and readable at 1280 and 375 px.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { alertDeliveries, notificationEndpoints, ruleExecutions } from '../../server/src/db/schema.ts';
import type { TestApp } from '../helpers/app.ts';
import { seriousViolations } from '../helpers/axe.ts';
import { assertNoHorizontalScroll, DESKTOP, PHONE } from '../helpers/browser.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { docsScreenshot, openSignedIn, pageErrors } from './support.ts';

/** Not due for a day: the delivery worker leaves a queued row alone. */
const NOT_DUE = () => new Date(Date.now() + 86_400_000);
const PUSH_ERROR = 'The push service refused the message as too large (413).';

describe('e2e: History shows where each alert went', function () {
  this.timeout(90_000);
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    ({ app, browser } = await startBrowserSuite());
  });
  after(() => stopBrowserSuite({ app, browser }));

  const db = () => app.runtime.deps.db;

  /** A stop that fired, its email SENT and its push to a phone FAILED; one in the app only; one queued. */
  async function seed(user: SignedInUser) {
    const [email] = await db()
      .select()
      .from(notificationEndpoints)
      .where(and(eq(notificationEndpoints.userId, user.id), eq(notificationEndpoints.type, 'email')));
    const url = `https://fcm.googleapis.com/fcm/send/${randomUUID()}`;
    const [phone] = await db()
      .insert(notificationEndpoints)
      .values({
        userId: user.id,
        type: 'webpush',
        value: url,
        valueKey: url,
        label: 'Chrome on Android',
        verificationStatus: 'verified',
      })
      .returning();
    const firedAt = new Date(Date.now() - 10 * 60_000);
    const [stop, , queued] = await db()
      .insert(ruleExecutions)
      .values(
        [
          {
            symbol: 'M&M',
            status: 'SUCCESS',
            minutes: 10,
            message: 'M&M fell to ₹2,890.00, at or below your stop loss at ₹2,900.00',
          },
          {
            symbol: 'TCS',
            status: 'IN_APP_ONLY',
            minutes: 60,
            message: 'TCS fell to ₹3,490.00: shown in the app',
          },
          {
            symbol: 'INFY',
            status: 'PENDING',
            minutes: 120,
            message: 'INFY fell to ₹1,234.50, at or below your stop loss at ₹1,240.00',
          },
        ].map((row) => ({
          userId: user.id,
          symbol: row.symbol,
          exchange: 'NSE' as const,
          triggerType: 'FIXED_STOP_LOSS',
          status: row.status,
          triggerPrice: '2900',
          executionPrice: '2890',
          message: row.message,
          executedAt: new Date(Date.now() - row.minutes * 60_000),
        })),
      )
      .returning();
    const sentAt = new Date(firedAt.getTime() + 5_000);
    await db()
      .insert(alertDeliveries)
      .values([
        {
          executionId: stop!.id,
          endpointId: phone!.id,
          channel: 'webpush' as const,
          destination: url,
          status: 'FAILED' as const,
          attempts: 1,
          lastError: PUSH_ERROR,
          statusAt: new Date(firedAt.getTime() + 2_000),
        },
        {
          executionId: stop!.id,
          endpointId: email!.id,
          channel: 'email' as const,
          destination: user.email,
          status: 'SENT' as const,
          attempts: 1,
          sentAt,
        },
        {
          executionId: queued!.id,
          endpointId: email!.id,
          channel: 'email' as const,
          destination: user.email,
          status: 'PENDING' as const,
          nextAttemptAt: NOT_DUE(),
        },
      ]);
    return { stop: stop!, queued: queued!, sentAt };
  }

  const badgesOf = (row: ReturnType<Page['locator']>) =>
    row.getByRole('list', { name: 'Deliveries' }).getByRole('listitem').allInnerTexts();

  it('puts a badge per channel on each row, and the details behind them, at 1280 and 375 px', async () => {
    const user = await signIn(app, { email: `rohan-${randomUUID().slice(0, 6)}@gmail.com` });
    const { sentAt } = await seed(user);
    const page = await openSignedIn(browser, app, user, '/history');
    const errors = pageErrors(page);
    const rows = page.getByRole('table').locator('tbody tr');
    await rows.nth(2).waitFor();

    expect(await badgesOf(rows.nth(0))).to.deep.equal(['Email sent', 'Push failed']);
    expect(
      await rows.nth(1).getByRole('list', { name: 'Deliveries' }).count(),
      'in-app only: no badges',
    ).to.equal(0);
    expect(await badgesOf(rows.nth(2))).to.deep.equal(['Email queued']);
    const tones = await rows
      .nth(0)
      .locator('.delivery-badge')
      .evaluateAll((badges) =>
        badges.map((b) => b.className.match(/badge-(gain|loss|primary)/)?.[1] ?? 'neutral'),
      );
    expect(tones).to.deep.equal(['primary', 'loss']);

    const details = rows.nth(0).locator('details');
    expect(await details.locator('summary').textContent(), 'named by the stock for a screen reader').to.equal(
      'Where it went (M&M)',
    );
    await details.locator('summary').click();
    const items = details.getByRole('listitem');
    expect(await items.count()).to.equal(2);
    const ist = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Kolkata',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    }).format(sentAt);
    const email = await items.nth(0).innerText();
    expect(email)
      .to.contain('Email')
      .and.contain('r…@gmail.com')
      .and.contain('Sent')
      .and.contain(`${ist} IST`);
    const push = await items.nth(1).innerText();
    expect(push)
      .to.contain('Push')
      .and.contain('Chrome on Android')
      .and.contain('Failed')
      .and.contain(PUSH_ERROR);
    expect(await page.locator('main').innerText(), 'the push URL never shows').to.not.contain(
      'fcm.googleapis.com',
    );
    expect(await page.locator('main').innerText(), 'push cannot know delivery').to.not.match(
      /Push delivered/i,
    );
    expect(await seriousViolations(page)).to.deep.equal([]);
    await assertNoHorizontalScroll(page);
    await docsScreenshot(page, 'history-deliveries-1280.png');

    await page.setViewportSize(PHONE);
    const card = page.locator('.execution-card').first();
    await card.waitFor();
    expect(await badgesOf(card)).to.deep.equal(['Email sent', 'Push failed']);
    await card.locator('details summary').click();
    expect(await card.locator('details').getByRole('listitem').nth(1).innerText()).to.contain(PUSH_ERROR);
    await assertNoHorizontalScroll(page);
    expect(await seriousViolations(page)).to.deep.equal([]);
    // The card from its badges down to its details in view.
    await card.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 72));
    await docsScreenshot(page, 'history-deliveries-375.png');
    expect(errors).to.deep.equal([]);
  });

  it('follows a settle: the queued email turns into Email sent without a reload', async () => {
    const user = await signIn(app);
    const { queued } = await seed(user);
    const page = await openSignedIn(browser, app, user, '/history');
    await page.setViewportSize(DESKTOP);
    const row = page.getByRole('table').locator('tbody tr').filter({ hasText: 'INFY' });
    await row.getByText('Email queued').waitFor();
    const requests: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/api/rule-executions')) requests.push(new URL(req.url()).pathname);
    });

    await db()
      .update(alertDeliveries)
      .set({ status: 'SENT', sentAt: new Date() })
      .where(eq(alertDeliveries.executionId, queued.id));
    await db().update(ruleExecutions).set({ status: 'SUCCESS' }).where(eq(ruleExecutions.id, queued.id));
    await app.runtime.deps.events.publish({
      type: 'executions',
      userId: user.id,
      settled: { id: queued.id, status: 'SUCCESS' },
    });

    await row.getByText('Email sent').waitFor();
    await row.getByText('Alert sent').waitFor();
    expect(requests, 'one refresh of that row, not the page').to.deep.equal([
      '/api/rule-executions/deliveries',
    ]);
  });
});
