/**
 * The session in Chromium against the real app (docs/auth.md#in-the-browser,
 * docs/pages.md): the full-screen check at start, Get Started with a valid, an expired
 * or a garbage stored token, a 401 after every session was revoked, and page views.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { newPage, screenshot } from '../helpers/browser.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { request } from '../helpers/http.ts';
import { signIn } from '../helpers/users.ts';
import { signAsServer } from '../security/support/tokens.ts';
import { pageErrors, pathOf, signedInContext } from './support.ts';
import { countCalls, holdCalls, storedTokens, storeTokens } from './session-support.ts';

describe('e2e: session check, Get Started and expiry', function () {
  this.timeout(60_000);
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    ({ app, browser } = await startBrowserSuite());
  });
  after(() => stopBrowserSuite({ app, browser }));

  /** The landing page, signed out, with `access`/`refresh` stored afterwards (no check ran yet). */
  async function landingWithTokens(access: string, refresh: string) {
    const page = await newPage(browser);
    await page.goto(`${app.url}/`);
    await page.getByRole('button', { name: 'Get Started' }).first().waitFor();
    await storeTokens(page, access, refresh);
    return page;
  }

  it('shows the full-screen loading message while the stored token is checked', async () => {
    const user = await signIn(app);
    const page = await (await signedInContext(browser, app, user)).newPage();
    const errors = pageErrors(page);
    const verify = await holdCalls(page, '**/api/auth/verify');
    await page.goto(`${app.url}/dashboard`);
    await verify.arrived;
    const loading = page.getByRole('status').filter({ hasText: 'Loading...' });
    await loading.waitFor();
    expect(await page.getByRole('heading', { level: 1 }).count(), 'nothing else while checking').to.equal(0);
    await screenshot(page, 'session-loading');
    await verify.release();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(await loading.count()).to.equal(0);
    expect(errors).to.deep.equal([]);
    await page.context().close();
  });

  it('Get Started with a valid stored token reads Checking... and goes to /dashboard', async () => {
    const user = await signIn(app, { name: 'Meera Iyer' });
    const page = await landingWithTokens(user.token, user.refreshToken);
    const verify = await holdCalls(page, '**/api/auth/verify');
    await page.getByRole('button', { name: 'Get Started' }).first().click();
    await verify.arrived;
    const checking = page.getByRole('button', { name: 'Checking...' });
    await checking.first().waitFor();
    expect(await checking.count(), 'all three buttons share the check').to.equal(3);
    expect(await checking.first().isDisabled()).to.equal(true);
    await verify.release();
    await page.waitForURL(`${app.url}/dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(await storedTokens(page)).to.deep.equal({ access: user.token, refresh: user.refreshToken });
    await page.close();
  });

  it('Get Started with an expired access token renews both tokens and goes to /dashboard', async () => {
    const user = await signIn(app);
    const now = Math.floor(Date.now() / 1000);
    const expired = signAsServer(user, { iat: now - 1000, exp: now - 1 });
    const page = await landingWithTokens(expired, user.refreshToken);
    const refreshes = countCalls(page, 'POST', '/api/auth/refresh');
    await page.getByRole('button', { name: 'Get Started' }).first().click();
    await page.waitForURL(`${app.url}/dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    const tokens = await storedTokens(page);
    expect(refreshes.count).to.equal(1);
    expect(tokens.access).to.be.a('string').and.not.equal(expired);
    expect(tokens.refresh).to.be.a('string').and.not.equal(user.refreshToken);
    const verified = await request<{ user: { id: string } }>(app.url, 'GET', '/api/auth/verify', undefined, {
      token: tokens.access!,
    });
    expect(verified.status).to.equal(200);
    expect(verified.body.data?.user.id).to.equal(user.id);
    await page.close();
  });

  it('Get Started with garbage tokens clears them and goes to /login', async () => {
    const page = await landingWithTokens('not-a-token', 'not-a-refresh-token');
    await page.getByRole('button', { name: 'Get Started' }).first().click();
    await page.waitForURL(`${app.url}/login`);
    await page.getByRole('button', { name: 'Sign in (demo)' }).waitFor();
    expect(await storedTokens(page)).to.deep.equal({ access: null, refresh: null });
    await page.close();
  });

  it('after every session is revoked, a 401 tries one refresh, then clears the tokens and goes to /login', async () => {
    const user = await signIn(app);
    const page = await (await signedInContext(browser, app, user)).newPage();
    const errors = pageErrors(page);
    await page.goto(`${app.url}/know-more`);
    await page.getByText('Your plan').waitFor();
    const revoked = await request(app.url, 'POST', '/api/auth/logout-all', {}, { token: user.token });
    expect(revoked.status).to.equal(200);

    const refreshes = countCalls(page, 'POST', '/api/auth/refresh');
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('button', { name: 'Sign in (demo)' }).waitFor();
    expect(pathOf(page)).to.equal('/login?redirect=%2Fdashboard');
    expect(await storedTokens(page)).to.deep.equal({ access: null, refresh: null });
    expect(refreshes.count, 'exactly one refresh attempt').to.equal(1);
    expect(errors).to.deep.equal([]);
    await page.context().close();
  });

  it('records a page view (POST /api/events) on each route change', async () => {
    const page = await newPage(browser);
    const pageView = (path: string) =>
      page.waitForRequest(
        (req) =>
          req.method() === 'POST' &&
          new URL(req.url()).pathname === '/api/events' &&
          (req.postDataJSON() as { path?: string }).path === path,
      );
    // One page at a time, as a reader goes: a click while the last page's code is still
    // loading would replace that navigation before it rendered (and was counted).
    const visit = async (path: string, go: () => Promise<unknown>) => {
      const view = pageView(path);
      await go();
      const sent = await view;
      expect(sent.postDataJSON()).to.include({ name: 'page_view' });
      expect((await sent.response())?.status(), `${path} stored`).to.equal(201);
    };
    await visit('/', () => page.goto(`${app.url}/`));
    await visit('/know-more', () =>
      page.getByRole('banner').getByRole('link', { name: 'How it Works' }).click(),
    );
    await visit('/contact', () => page.getByRole('banner').getByRole('link', { name: 'Contact' }).click());
    await visit('/terms', () =>
      page.getByRole('contentinfo').getByRole('link', { name: 'Terms and Conditions' }).click(),
    );
    await page.close();
  });
});
