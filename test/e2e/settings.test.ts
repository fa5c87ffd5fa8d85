/**
 * Settings and the Verify page in Chromium against the real app (docs/notifications.md): the
 * account email, adding an email and verifying it through the link in the dev outbox, validation,
 * WhatsApp by tier, resend, delete, failures.
 */
import { CHECK_EMAIL_NOTICE, ENDPOINT_MESSAGES } from '@app/common/api/endpoints';
import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { notificationEndpoints } from '../../server/src/db/schema.ts';
import type { TestApp } from '../helpers/app.ts';
import { assertNoHorizontalScroll, PHONE, screenshot } from '../helpers/browser.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { signIn } from '../helpers/users.ts';
import { addEndpoint, backdate, outboxFor, uniqueEmail, verifyLink } from '../server/endpoints/support.ts';
import { openSignedIn, pageErrors } from './support.ts';

const TIER_MESSAGE = 'WhatsApp alerts are available on the Advanced tier. Upgrade to add a WhatsApp number.';
const TOO_SOON = 'Please wait a minute before requesting another verification email.';

function endpointRow(page: Page, value: string) {
  return page
    .getByRole('list', { name: 'Notification endpoints' })
    .getByRole('listitem')
    .filter({ hasText: value });
}

async function openAddForm(page: Page) {
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('form', { name: 'Add notification endpoint' }).waitFor();
}

async function submitAdd(page: Page) {
  await page
    .getByRole('form', { name: 'Add notification endpoint' })
    .getByRole('button', { name: 'Add' })
    .click();
}

describe('e2e: Settings and email verification', function () {
  this.timeout(60_000);
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    ({ app, browser } = await startBrowserSuite());
  });
  after(() => stopBrowserSuite({ app, browser }));

  it('adds an email, shows it Unverified, and verifies it through the emailed link', async () => {
    const user = await signIn(app, { name: 'Asha Verma' });
    const page = await openSignedIn(browser, app, user, '/settings');
    const errors = pageErrors(page);
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();

    const account = endpointRow(page, user.email);
    await account.getByText('Verified', { exact: true }).waitFor();
    expect(await account.getByRole('button', { name: /Delete/ }).count()).to.equal(0);
    expect(await account.getByRole('checkbox', { name: 'Active' }).isDisabled()).to.equal(true);
    expect(await account.getByRole('checkbox', { name: 'Active' }).isChecked()).to.equal(true);
    const info = page.getByRole('region', { name: 'Account Information' });
    expect(await info.innerText())
      .to.contain('Asha Verma')
      .and.contain(user.email)
      .and.contain('Basic');

    const email = uniqueEmail();
    await openAddForm(page);
    expect(await page.getByLabel('Type').inputValue()).to.equal('email');
    await page.getByLabel('Email Address').fill(email);
    await submitAdd(page);
    const row = endpointRow(page, email);
    await row.getByText('Unverified').waitFor();
    expect(await row.getAttribute('class')).to.contain('endpoint-row-pending');
    expect(
      await row.getByRole('checkbox', { name: 'Active' }).isChecked(),
      'an unverified address receives nothing: not ticked (issue 28, item 16)',
    ).to.equal(false);
    await row.getByRole('button', { name: /Resend Email/ }).waitFor();
    await page.getByRole('status').filter({ hasText: CHECK_EMAIL_NOTICE }).waitFor();
    expect(await page.getByRole('form').count(), 'the form closes after adding').to.equal(0);
    await screenshot(page, 'settings-desktop');

    const [mail] = await outboxFor(app, email);
    const link = new URL(verifyLink(mail!.text));
    await page.goto(`${app.url}${link.pathname}${link.search}`);
    await page.getByText('You will now receive stock alert notifications when your rules trigger').waitFor();
    await screenshot(page, 'verify-success');
    await page.getByRole('link', { name: 'Go to Notification Settings' }).click();
    await page.waitForURL(/\/settings$/);
    await endpointRow(page, email).getByText('Verified', { exact: true }).waitFor();
    expect(await page.getByText('Unverified').count()).to.equal(0);
    expect(await endpointRow(page, email).getByRole('checkbox', { name: 'Active' }).isChecked()).to.equal(
      true,
    );
    expect(errors).to.deep.equal([]);
  });

  it('checks the value with the server rules before sending, keeping what was typed', async () => {
    const user = await signIn(app);
    const page = await openSignedIn(browser, app, user, '/settings');
    await openAddForm(page);
    await submitAdd(page);
    await page.getByText(ENDPOINT_MESSAGES.blank).waitFor();
    await page.getByLabel('Email Address').fill('not-an-email');
    await submitAdd(page);
    await page.getByText(ENDPOINT_MESSAGES.email).waitFor();
    expect(await page.getByLabel('Email Address').inputValue()).to.equal('not-an-email');
    expect(await page.getByLabel('Email Address').getAttribute('aria-invalid')).to.equal('true');

    await page.getByLabel('Email Address').fill(user.email.toUpperCase());
    await submitAdd(page);
    await page.getByRole('alert').filter({ hasText: ENDPOINT_MESSAGES.duplicate }).waitFor();
    expect(await page.getByLabel('Email Address').inputValue()).to.equal(user.email.toUpperCase());

    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByRole('form').count()).to.equal(0);
    await page.getByRole('button', { name: 'Add', exact: true }).waitFor();
  });

  it('shows the Advanced-tier message for WhatsApp on a Basic account', async () => {
    const user = await signIn(app, { tier: 'basic' });
    const page = await openSignedIn(browser, app, user, '/settings');
    await openAddForm(page);
    await page.getByLabel('Type').selectOption('whatsapp');
    const phone = page.getByLabel('Phone Number');
    expect(await phone.getAttribute('placeholder')).to.contain('+919876543210');
    await phone.fill('098765');
    await submitAdd(page);
    await page.getByText(ENDPOINT_MESSAGES.phone).waitFor();
    await phone.fill('+91 98765 43210');
    await submitAdd(page);
    await page.getByRole('alert').filter({ hasText: TIER_MESSAGE }).waitFor();
    expect(await phone.inputValue()).to.equal('+91 98765 43210');
    await page.getByText('Whatsapp support coming soon').first().waitFor();
    // This server has no Telegram bot (TELEGRAM_* unset): no Connect, a note instead.
    await page.getByText('Telegram alerts: coming soon').waitFor();
    expect(await page.getByRole('button', { name: 'Connect Telegram' }).count()).to.equal(0);
    await page.setViewportSize(PHONE);
    await assertNoHorizontalScroll(page);
    await screenshot(page, 'settings-form-error-phone');
  });

  it('adds WhatsApp on Advanced, with the coming-soon note and no email banner', async () => {
    const user = await signIn(app, { tier: 'advanced' });
    const page = await openSignedIn(browser, app, user, '/settings');
    await page.getByRole('region', { name: 'Account Information' }).getByText('Advanced').waitFor();
    await openAddForm(page);
    await page.getByLabel('Type').selectOption('whatsapp');
    await page.getByLabel('Phone Number').fill('+91 98765 43210');
    await submitAdd(page);
    const row = endpointRow(page, '+919876543210');
    await row.getByText('Whatsapp support coming soon').waitFor();
    expect(await row.getByText('Unverified').count()).to.equal(0);
    expect(await page.getByText(CHECK_EMAIL_NOTICE).count()).to.equal(0);
    await addEndpoint(app, user.token, { value: uniqueEmail('pending') });
    await page.reload();
    await page.getByText('Unverified').waitFor();
    for (const width of [PHONE.width, 360]) {
      await page.setViewportSize({ width, height: PHONE.height });
      await assertNoHorizontalScroll(page);
    }
    await page.setViewportSize(PHONE);
    await screenshot(page, 'settings-phone');
  });

  it('resends the verification email, and says so when asked again within the minute', async () => {
    const user = await signIn(app);
    const email = uniqueEmail('resend');
    const added = await addEndpoint(app, user.token, { value: email });
    const page = await openSignedIn(browser, app, user, '/settings');
    const resend = endpointRow(page, email).getByRole('button', { name: /Resend Email/ });
    await resend.click();
    await page.getByRole('alert').filter({ hasText: TOO_SOON }).waitFor();

    await backdate(app, added.body.data!.id, { lastSentAt: new Date(Date.now() - 120_000) });
    await page.getByRole('button', { name: 'Dismiss error' }).click();
    await resend.click();
    await page.getByRole('status').filter({ hasText: CHECK_EMAIL_NOTICE }).waitFor();
    expect(await outboxFor(app, email)).to.have.length(2);
  });

  it('deletes an endpoint only after confirming, and never the account email', async () => {
    const user = await signIn(app);
    const email = uniqueEmail('delete');
    await addEndpoint(app, user.token, { value: email });
    const page = await openSignedIn(browser, app, user, '/settings');
    const row = endpointRow(page, email);
    await row.getByRole('button', { name: `Delete ${email}` }).click();
    await row.getByRole('button', { name: 'Keep' }).click();
    expect(
      await row
        .getByRole('button', { name: `Delete ${email}` })
        .evaluate((el) => el === document.activeElement),
    ).to.equal(true);
    await row.getByRole('button', { name: `Delete ${email}` }).click();
    await row
      .getByRole('group', { name: `Delete ${email}?` })
      .getByRole('button', { name: 'Delete' })
      .click();
    await row.waitFor({ state: 'detached' });
    await page.reload();
    await endpointRow(page, user.email).waitFor();
    expect(await endpointRow(page, email).count()).to.equal(0);
  });

  it('shows the empty state when no endpoint is left', async () => {
    const user = await signIn(app);
    await app.runtime.deps.db.delete(notificationEndpoints).where(eq(notificationEndpoints.userId, user.id));
    const page = await openSignedIn(browser, app, user, '/settings');
    await page.getByText('No notification endpoints configured').waitFor();
    await page.getByText('Add an endpoint to receive alerts').waitFor();
  });

  it('says when the endpoints could not be loaded, and loads them on Try again', async () => {
    const user = await signIn(app);
    const page = await openSignedIn(browser, app, user, '/privacy');
    await page.route('**/api/notification-endpoints', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false}' }),
    );
    await page.goto(`${app.url}/settings`);
    await page.getByRole('alert').filter({ hasText: 'Failed to load notification settings' }).waitFor();
    await page.unroute('**/api/notification-endpoints');
    await page.getByRole('button', { name: 'Try again' }).click();
    await endpointRow(page, user.email).waitFor();
    expect(await page.getByRole('alert').count()).to.equal(0);
  });
});

describe('e2e: Verify page', function () {
  this.timeout(60_000);
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    ({ app, browser } = await startBrowserSuite());
  });
  after(() => stopBrowserSuite({ app, browser }));

  it('says the link is invalid without a token, and shows the server error for a bad one', async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/verify-endpoint`);
    await page.getByText('Invalid verification link.').waitFor();
    await page.goto(`${app.url}/verify-endpoint?token=${'x'.repeat(43)}`);
    await page.getByText('This verification link is invalid or has already been used.').waitFor();
    await page.getByRole('link', { name: 'Go to Notification Settings' }).waitFor();
    await page.close();
  });
});
