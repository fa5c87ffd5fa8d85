/**
 * "Send a test" in Settings (docs/notifications.md#send-a-test), in Chromium against the real app:
 * the button on each active, verified endpoint (none on a pending one), disabled while sending,
 * the quiet note, the email in the dev outbox, the server's sentence when refused, and History's
 * row for the test.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { seriousViolations } from '../helpers/axe.ts';
import { assertNoHorizontalScroll, DESKTOP, PHONE } from '../helpers/browser.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { signIn } from '../helpers/users.ts';
import { waitFor } from '../helpers/wait.ts';
import { addEndpoint as addChannelEndpoint } from '../server/notifications/support.ts';
import { addEndpoint, outboxFor, uniqueEmail } from '../server/endpoints/support.ts';
import { docsScreenshot, openSignedIn, pageErrors } from './support.ts';

function endpointRow(page: Page, value: string) {
  return page
    .getByRole('list', { name: 'Notification endpoints' })
    .getByRole('listitem')
    .filter({ hasText: value });
}

describe('e2e: Settings, Send a test', function () {
  this.timeout(90_000);
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    ({ app, browser } = await startBrowserSuite({ delivery: { pollMs: 100 } }));
  });
  after(() => stopBrowserSuite({ app, browser }));

  it('sends a test to the email, says where to look, and History lists it', async () => {
    const user = await signIn(app);
    const pending = uniqueEmail('unconfirmed');
    await addEndpoint(app, user.token, { value: pending });
    await addChannelEndpoint(app, user, 'webpush', { label: 'Chrome on Android' });
    const page = await openSignedIn(browser, app, user, '/settings');
    const errors = pageErrors(page);
    const account = endpointRow(page, user.email);
    const button = account.getByRole('button', { name: `Send a test to ${user.email}` });
    await button.waitFor();
    expect(
      await endpointRow(page, pending)
        .getByRole('button', { name: /Send a test/ })
        .count(),
    ).to.equal(0);
    expect(
      await endpointRow(page, 'Chrome on Android')
        .getByRole('button', { name: 'Send a test to Chrome on Android' })
        .count(),
    ).to.equal(1);

    // Held on its way: the button says so and cannot be pressed twice.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/notification-endpoints/*/test', async (route) => {
      await held;
      await route.continue();
    });
    await button.click();
    await account.getByText('Sending test...').waitFor();
    expect(await button.isDisabled()).to.equal(true);
    release();
    await account.getByText('Test sent — check your inbox').waitFor();
    expect(await button.isEnabled()).to.equal(true);
    await page.unroute('**/api/notification-endpoints/*/test');

    const [mail] = await waitFor('the test email', async () => {
      const mails = await outboxFor(app, user.email);
      return mails.length > 0 ? mails : undefined;
    });
    expect(mail!.subject).to.equal('Portfolio Guard: test message');

    expect(await seriousViolations(page)).to.deep.equal([]);
    const card = page.getByRole('region', { name: 'Notifications' });
    await card.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 80));
    await docsScreenshot(page, 'settings-send-test-1280.png');
    await page.setViewportSize(PHONE);
    await assertNoHorizontalScroll(page);
    await account.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 80));
    await docsScreenshot(page, 'settings-send-test-375.png');

    // A second test within the minute: the server's sentence, beside the button.
    await button.click();
    await account
      .getByText('You sent this endpoint a test a moment ago. Please wait a minute before sending another.')
      .waitFor();

    await page.setViewportSize(DESKTOP);
    await page.goto(`${app.url}/history`);
    const first = page.locator('tbody tr').first();
    await first.locator('.execution-status').getByText('Sent', { exact: true }).waitFor();
    expect(await first.locator('th').innerText()).to.equal('Test message');
    expect(await first.getByRole('list', { name: 'Deliveries' }).innerText()).to.equal('Email sent');
    const text = await first.innerText();
    expect(text).to.contain('Sent from Settings to check where alerts arrive.').and.not.contain('₹');
    expect(errors).to.deep.equal([]);
  });
});
