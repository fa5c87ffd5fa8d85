/**
 * The Verify page's states in Chromium (docs/notifications.md): 'Verifying your
 * email...' while the call runs, 'Verification failed.' for a refusal without a reason,
 * the call-failure text when the call never completes, and 'Go to Notification Settings'
 * on every outcome.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { newPage, PHONE, screenshot } from '../helpers/browser.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { signIn } from '../helpers/users.ts';
import { addEndpoint, outboxFor, uniqueEmail, verifyLink } from '../server/endpoints/support.ts';
import { pageErrors } from './support.ts';
import { holdCalls } from './session-support.ts';

const VERIFY_CALL = '**/api/notification-endpoints/verify?**';

async function expectSettingsLink(page: Page) {
  const link = page.getByRole('link', { name: 'Go to Notification Settings' });
  await link.waitFor();
  expect(await link.getAttribute('href')).to.equal('/settings');
}

describe('e2e: Verify page states', function () {
  this.timeout(60_000);
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    ({ app, browser } = await startBrowserSuite());
  });
  after(() => stopBrowserSuite({ app, browser }));

  it("shows 'Verifying your email...' until the server answers, then the thank-you", async () => {
    const user = await signIn(app);
    const email = uniqueEmail('verify-wait');
    await addEndpoint(app, user.token, { value: email });
    const [mail] = await outboxFor(app, email);
    const link = new URL(verifyLink(mail!.text));

    const page = await newPage(browser);
    const errors = pageErrors(page);
    const verify = await holdCalls(page, VERIFY_CALL);
    await page.goto(`${app.url}${link.pathname}${link.search}`);
    await verify.arrived;
    await page.getByRole('status').getByText('Verifying your email...').waitFor();
    expect(await page.getByRole('link', { name: 'Go to Notification Settings' }).count()).to.equal(0);
    await screenshot(page, 'verify-pending');
    await verify.release();
    await page.getByText('You will now receive stock alert notifications when your rules trigger').waitFor();
    await expectSettingsLink(page);
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it("says 'Email already verified' when the link is clicked a second time (issue 28, item 16)", async () => {
    const user = await signIn(app);
    const email = uniqueEmail('verify-twice');
    await addEndpoint(app, user.token, { value: email });
    const [mail] = await outboxFor(app, email);
    const link = new URL(verifyLink(mail!.text));
    const first = await newPage(browser);
    await first.goto(`${app.url}${link.pathname}${link.search}`);
    await first.getByRole('heading', { name: 'Email verified' }).waitFor();
    await first.close();
    const again = await newPage(browser, PHONE);
    const errors = pageErrors(again);
    await again.goto(`${app.url}${link.pathname}${link.search}`);
    await again.getByRole('heading', { name: 'Email already verified' }).waitFor();
    expect(await again.getByRole('alert').count(), 'no error').to.equal(0);
    await expectSettingsLink(again);
    await screenshot(again, 'verify-already-375');
    expect(errors).to.deep.equal([]);
    await again.close();
  });

  it("says 'Verification failed.' when the server refuses without a reason", async () => {
    const page = await newPage(browser);
    await page.route(VERIFY_CALL, (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"success":false}' }),
    );
    await page.goto(`${app.url}/verify-endpoint?token=${'a'.repeat(43)}`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect((await alert.innerText()).trim()).to.equal('Verification failed.');
    await expectSettingsLink(page);
    await page.close();
  });

  it('says the link may be invalid or expired when the call fails, on a phone too', async () => {
    const page = await newPage(browser, PHONE);
    await page.route(VERIFY_CALL, (route) => route.abort('connectionreset'));
    await page.goto(`${app.url}/verify-endpoint?token=${'b'.repeat(43)}`);
    await page
      .getByRole('alert')
      .filter({ hasText: 'Verification failed. The link may be invalid or expired.' })
      .waitFor();
    await expectSettingsLink(page);
    await screenshot(page, 'verify-failed-phone');

    // Signed out, the link leads through sign-in back to the settings.
    await page.getByRole('link', { name: 'Go to Notification Settings' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).to.equal('/settings');
    await page.close();
  });
});
