/**
 * Settings verifying a WhatsApp number in Chromium against the real app, with WhatsApp configured
 * and sent through the fake Graph API (docs/notifications.md#whatsapp): the coming-soon note gone,
 * the number added, the code field "Enter the 6-digit code we sent on WhatsApp" with Verify and
 * Resend code, a wrong code and a resend too soon said beside it, the right code → Verified.
 */
import {
  CODE_FIELD_LABEL,
  CODE_MESSAGES,
  codeSentNotice,
  wrongCodeMessage,
} from '@app/common/endpoints/whatsapp-code';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { assertNoHorizontalScroll, DESKTOP, PHONE } from '../helpers/browser.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { startFakeWhatsApp, whatsappEnv, type FakeWhatsApp } from '../helpers/fake-whatsapp.ts';
import { signIn } from '../helpers/users.ts';
import { uniqueNumber } from '../server/whatsapp/support.ts';
import { docsScreenshot, openSignedIn, pageErrors, showUnderHeader } from './support.ts';

function endpointRow(page: Page, value: string) {
  return page
    .getByRole('list', { name: 'Notification endpoints' })
    .getByRole('listitem')
    .filter({ hasText: value });
}

describe('e2e: Settings verifies a WhatsApp number with a code', function () {
  this.timeout(90_000);
  let fake: FakeWhatsApp;
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    fake = await startFakeWhatsApp();
    ({ app, browser } = await startBrowserSuite({ env: whatsappEnv(fake.url) }));
    fake.deliverWebhooksTo(`${app.url}/api/whatsapp/webhook`);
  });
  after(async () => {
    await stopBrowserSuite({ app, browser });
    await fake.close();
  });

  it('adds a number, refuses a wrong code beside the field, and verifies the right one', async () => {
    const user = await signIn(app, { tier: 'advanced' });
    const page = await openSignedIn(browser, app, user, '/settings');
    const errors = pageErrors(page);
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByLabel('Type').selectOption('whatsapp');
    // Unique per user is enough (the screenshots keep one number).
    const number = '+919876543210';
    await page.getByLabel('Phone Number').fill(number);
    await page
      .getByRole('form', { name: 'Add notification endpoint' })
      .getByRole('button', { name: 'Add' })
      .click();

    const row = endpointRow(page, number);
    await row.getByText('Unverified').waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: codeSentNotice(number) })
      .waitFor();
    const field = row.getByLabel(CODE_FIELD_LABEL);
    await field.waitFor();
    expect(
      await page.getByText('Whatsapp support coming soon').count(),
      'the note goes once configured',
    ).to.equal(0);
    expect(await row.getByRole('checkbox', { name: 'Active' }).isChecked()).to.equal(false);
    const code = fake.codeSentTo(number)!;
    expect(code).to.match(/^\d{6}$/);

    // Each width: the field with its banner, as the user sees it after adding.
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await assertNoHorizontalScroll(page);
      await showUnderHeader(page.getByRole('heading', { name: 'Notifications' }));
      await docsScreenshot(page, `settings-whatsapp-${viewport.width}.png`);
    }
    await page.setViewportSize(DESKTOP);

    await field.fill(code === '000000' ? '111111' : '000000');
    await row.getByRole('button', { name: 'Verify' }).click();
    await row
      .getByRole('alert')
      .filter({ hasText: wrongCodeMessage(4) })
      .waitFor();
    expect(await field.getAttribute('aria-invalid')).to.equal('true');

    await row.getByRole('button', { name: `Resend code to ${number}` }).click();
    await row.getByRole('alert').filter({ hasText: CODE_MESSAGES.resendTooSoon }).waitFor();

    await field.fill(code);
    await row.getByRole('button', { name: 'Verify' }).click();
    await row.getByText('Verified', { exact: true }).waitFor();
    expect(await row.getByLabel(CODE_FIELD_LABEL).count()).to.equal(0);
    expect(await row.getByRole('checkbox', { name: 'Active' }).isChecked()).to.equal(true);
    expect(errors).to.deep.equal([]);
  });

  it('a malformed code is refused in the page, before any request', async () => {
    const user = await signIn(app, { tier: 'advanced' });
    const number = uniqueNumber();
    await fetch(`${app.url}/api/notification-endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'whatsapp', value: number }),
    });
    const page = await openSignedIn(browser, app, user, '/settings');
    const row = endpointRow(page, number);
    const verifies: string[] = [];
    page.on('request', (req) => {
      if (/\/notification-endpoints\/[^/]+\/verify$/.test(req.url())) verifies.push(req.url());
    });
    await row.getByLabel(CODE_FIELD_LABEL).fill('12a');
    await row.getByRole('button', { name: 'Verify' }).click();
    await row.getByRole('alert').filter({ hasText: CODE_MESSAGES.format }).waitFor();
    expect(verifies).to.deep.equal([]);
  });
});
