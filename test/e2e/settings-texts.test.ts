/**
 * The Settings page's busy and failure texts (docs/notifications.md): 'Adding...' while an
 * endpoint is added, the value field's placeholder examples, and the fallback sentences
 * when adding, resending or deleting fails without a message from the server.
 */
import { CHECK_EMAIL_NOTICE } from '@app/common/api/endpoints';
import { expect } from 'chai';
import type { Browser, Page, Route } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { screenshot } from '../helpers/browser.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { signIn } from '../helpers/users.ts';
import { addEndpoint, uniqueEmail } from '../server/endpoints/support.ts';
import { openSignedIn, pageErrors } from './support.ts';
import { holdCalls } from './session-support.ts';

/** Answers a call with a 500 whose envelope carries no message. */
function failWithoutMessage(route: Route) {
  return route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false}' });
}

function addForm(page: Page) {
  return page.getByRole('form', { name: 'Add notification endpoint' });
}

function endpointRow(page: Page, value: string) {
  return page
    .getByRole('list', { name: 'Notification endpoints' })
    .getByRole('listitem')
    .filter({ hasText: value });
}

describe('e2e: Settings busy and failure texts', function () {
  this.timeout(60_000);
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    ({ app, browser } = await startBrowserSuite());
  });
  after(() => stopBrowserSuite({ app, browser }));

  it("shows placeholder examples, 'Adding...' while adding, and the fallback when adding fails", async () => {
    const user = await signIn(app);
    const page = await openSignedIn(browser, app, user, '/settings');
    const errors = pageErrors(page);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    expect(await page.getByLabel('Email Address').getAttribute('placeholder')).to.equal(
      'e.g. you@example.com',
    );
    await page.getByLabel('Type').selectOption('whatsapp');
    expect(await page.getByLabel('Phone Number').getAttribute('placeholder')).to.equal('e.g. +919876543210');
    await page.getByLabel('Type').selectOption('email');

    const email = uniqueEmail('adding');
    await page.getByLabel('Email Address').fill(email);
    const adding = await holdCalls(page, '**/api/notification-endpoints');
    await addForm(page).getByRole('button', { name: 'Add' }).click();
    await adding.arrived;
    const busy = addForm(page).getByRole('button', { name: 'Adding...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).to.equal(true);
    expect(await addForm(page).getByRole('button', { name: 'Cancel' }).isDisabled()).to.equal(true);
    await screenshot(page, 'settings-adding');
    await adding.release();
    await endpointRow(page, email).getByText('Unverified').waitFor();
    await page.getByRole('status').filter({ hasText: CHECK_EMAIL_NOTICE }).waitFor();

    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const other = uniqueEmail('add-fails');
    await page.getByLabel('Email Address').fill(other);
    await page.route('**/api/notification-endpoints', failWithoutMessage);
    await addForm(page).getByRole('button', { name: 'Add' }).click();
    await addForm(page)
      .getByRole('alert')
      .filter({ hasText: 'Failed to add notification endpoint' })
      .waitFor();
    expect(await page.getByLabel('Email Address').inputValue(), 'what was typed is kept').to.equal(other);
    expect(await endpointRow(page, other).count()).to.equal(0);
    expect(errors).to.deep.equal([]);
    await page.context().close();
  });

  it("says 'Failed to resend verification email' when the resend fails without a message", async () => {
    const user = await signIn(app);
    const email = uniqueEmail('resend-fails');
    await addEndpoint(app, user.token, { value: email });
    const page = await openSignedIn(browser, app, user, '/settings');
    await page.route('**/api/notification-endpoints/*/resend', failWithoutMessage);
    await endpointRow(page, email)
      .getByRole('button', { name: /Resend Email/ })
      .click();
    await page.getByRole('alert').filter({ hasText: 'Failed to resend verification email' }).waitFor();
    expect(await page.getByText(CHECK_EMAIL_NOTICE).count()).to.equal(0);
    await page.getByRole('button', { name: 'Dismiss error' }).click();
    expect(await page.getByText('Failed to resend verification email').count()).to.equal(0);
    await page.context().close();
  });

  it("says 'Failed to delete notification endpoint' and keeps the row when the delete fails", async () => {
    const user = await signIn(app);
    const email = uniqueEmail('delete-fails');
    await addEndpoint(app, user.token, { value: email });
    const page = await openSignedIn(browser, app, user, '/settings');
    await page.route('**/api/notification-endpoints/*', (route) =>
      route.request().method() === 'DELETE' ? failWithoutMessage(route) : route.continue(),
    );
    const row = endpointRow(page, email);
    await row.getByRole('button', { name: `Delete ${email}` }).click();
    await row
      .getByRole('group', { name: `Delete ${email}?` })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByRole('alert').filter({ hasText: 'Failed to delete notification endpoint' }).waitFor();
    expect(await row.count()).to.equal(1);
    await screenshot(page, 'settings-delete-failed');
    await page.context().close();
  });
});
