/**
 * The Login page's texts in Chromium against the real app (docs/pages.md, Login):
 * the demo form next to the 'Google Sign-In Unavailable' notice, 'Signing you in...' while
 * the call runs, and 'Login failed. Please try again.' when it fails.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { newPage, PHONE, screenshot } from '../helpers/browser.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { pageErrors } from './support.ts';
import { holdCalls, storedTokens } from './session-support.ts';

const LOGIN_FAILED = 'Login failed. Please try again.';

async function fillDemoForm(page: Page, name = 'Kavya Rao') {
  await page.getByLabel('Email').fill(`login-${randomUUID().slice(0, 8)}@example.com`);
  await page.getByLabel('Name').fill(name);
}

describe('e2e: Login page texts', function () {
  this.timeout(60_000);
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    ({ app, browser } = await startBrowserSuite());
  });
  after(() => stopBrowserSuite({ app, browser }));

  it('shows the Setup Required notice beside a labelled demo sign-in form when Google is not configured', async () => {
    for (const [viewport, name] of [
      [undefined, 'login-desktop'],
      [PHONE, 'login-phone'],
    ] as const) {
      const page = await newPage(browser, viewport);
      const errors = pageErrors(page);
      await page.goto(`${app.url}/login`);
      const notice = page.getByRole('region', { name: 'Google Sign-In Unavailable' });
      await notice.waitFor();
      expect(await notice.textContent())
        .to.contain('Setup Required')
        .and.contain('Google OAuth is not configured');
      const demo = page.getByRole('region', { name: /Demo sign-in/ });
      expect(await demo.getByText('Demo mode', { exact: true }).count()).to.equal(1);
      expect(await demo.getByLabel('Email').getAttribute('type')).to.equal('email');
      expect(await demo.getByLabel('Name').isVisible()).to.equal(true);
      expect(await page.getByRole('link', { name: 'Terms and Conditions' }).count()).to.be.greaterThan(0);
      await screenshot(page, name);
      expect(errors).to.deep.equal([]);
      await page.close();
    }
  });

  it('reads Signing you in... while the sign-in call runs, then opens the dashboard', async () => {
    const page = await newPage(browser);
    await page.goto(`${app.url}/login`);
    await fillDemoForm(page);
    const login = await holdCalls(page, '**/api/auth/login');
    await page.getByRole('button', { name: 'Sign in (demo)' }).click();
    await login.arrived;
    await page.getByRole('status').filter({ hasText: 'Signing you in...' }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign in (demo)' }).isDisabled()).to.equal(true);
    expect(await page.getByLabel('Email').isDisabled()).to.equal(true);
    await login.release();
    await page.waitForURL(`${app.url}/dashboard`);
    await page.close();
  });

  it("says 'Login failed. Please try again.' when the server refuses the sign-in", async () => {
    const page = await newPage(browser);
    await page.goto(`${app.url}/login`);
    // Spaces only: the browser accepts the field, the server refuses the blank name (400).
    await fillDemoForm(page, '   ');
    const answer = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/auth/login');
    await page.getByRole('button', { name: 'Sign in (demo)' }).click();
    expect((await answer).status()).to.equal(400);
    const alert = page.getByRole('alert');
    await alert.filter({ hasText: LOGIN_FAILED }).waitFor();
    expect(await alert.innerText()).not.to.contain('Please enter your name');
    expect(await storedTokens(page)).to.deep.equal({ access: null, refresh: null });
    await page.getByRole('button', { name: 'Dismiss error' }).click();
    expect(await page.getByText(LOGIN_FAILED).count()).to.equal(0);
    await page.close();
  });

  it('says the same when the server fails, but keeps the sentence of a rate limit', async () => {
    const page = await newPage(browser);
    await page.goto(`${app.url}/login`);
    await fillDemoForm(page);
    const answers = [
      { status: 500, error: 'Database connection lost', shown: LOGIN_FAILED },
      { status: 429, error: 'Too many requests. Please wait a moment and try again.', shown: null },
    ];
    for (const { status, error, shown } of answers) {
      await page.route('**/api/auth/login', (route) =>
        route.fulfill({
          status,
          contentType: 'application/json',
          headers: status === 429 ? { 'Retry-After': '30' } : {},
          body: JSON.stringify({ success: false, error }),
        }),
      );
      await page.getByRole('button', { name: 'Sign in (demo)' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: shown ?? error })
        .waitFor();
      if (shown) expect(await page.getByText(error).count()).to.equal(0);
      await page.getByRole('button', { name: 'Dismiss error' }).click();
      await page.unroute('**/api/auth/login');
    }
    await page.close();
  });
});
