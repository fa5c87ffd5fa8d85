/**
 * The public side in Chromium against the real app (docs/pages.md,
 * docs/auth.md#in-the-browser): Get Started through demo sign-in to the dashboard and back out,
 * the post-login redirect whitelist, unknown paths, the sign-in guard, phone widths.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { assertNoHorizontalScroll, newPage, PHONE } from '../helpers/browser.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { pageErrors, pathOf } from './support.ts';

/** Fills and sends the demo sign-in form of /login. */
async function demoSignIn(page: Page, name = 'Ravi Kumar') {
  await page.getByLabel('Email').fill(`public-${randomUUID().slice(0, 8)}@example.com`);
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Sign in (demo)' }).click();
}

describe('e2e: public pages and the sign-in flow', function () {
  this.timeout(60_000);
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    ({ app, browser } = await startBrowserSuite());
  });
  after(() => stopBrowserSuite({ app, browser }));

  it('goes Get Started → login → dashboard → logout → landing', async () => {
    const page = await newPage(browser);
    const errors = pageErrors(page);
    await page.goto(`${app.url}/`);
    await page.getByRole('button', { name: 'Get Started' }).first().click();
    await page.waitForURL(`${app.url}/login`);
    await demoSignIn(page, 'Ravi Kumar');
    await page.waitForURL(`${app.url}/dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).to.be.a('string');

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${app.url}/`);
    await page.getByRole('button', { name: 'Get Started' }).first().waitFor();
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).to.equal(null);
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  for (const [redirect, lands] of [
    ['/settings', '/settings'],
    ['/history?x=1', '/history?x=1'],
    ['https://evil.example', '/dashboard'],
    ['//evil.example/settings', '/dashboard'],
    ['/admin', '/dashboard'],
  ] as const) {
    it(`after sign-in with redirect=${redirect} lands on ${lands}`, async () => {
      const page = await newPage(browser);
      await page.goto(`${app.url}/login?redirect=${encodeURIComponent(redirect)}`);
      await demoSignIn(page);
      await page.waitForURL((url) => url.pathname !== '/login');
      expect(pathOf(page)).to.equal(lands);
      await page.close();
    });
  }

  it('sends an unknown path to the landing page', async () => {
    const page = await newPage(browser);
    await page.goto(`${app.url}/no/such/page`);
    await page.waitForURL(`${app.url}/`);
    await page.getByRole('button', { name: 'Get Started' }).first().waitFor();
    await page.close();
  });

  it('sends a signed-out visit to /holdings to /login?redirect=%2Fholdings', async () => {
    const page = await newPage(browser);
    await page.goto(`${app.url}/holdings`);
    await page.waitForURL((url) => url.pathname === '/login');
    expect(pathOf(page)).to.equal('/login?redirect=%2Fholdings');
    await page.getByRole('button', { name: 'Sign in (demo)' }).waitFor();
    await page.close();
  });

  for (const width of [375, 360]) {
    it(`shows the landing page at ${width} px without sideways scrolling`, async () => {
      const page = await newPage(browser, { width, height: 740 });
      await page.goto(`${app.url}/`);
      await page.getByRole('button', { name: 'Get Started' }).first().waitFor();
      await assertNoHorizontalScroll(page);
      await page.close();
    });
  }

  it("loads none of the signed-in app's code on the landing page: no script of its pages or frame, no rule of their stylesheets", async () => {
    const page = await newPage(browser, PHONE);
    const assets: string[] = [];
    page.on('request', (req) => {
      const { pathname } = new URL(req.url());
      if (pathname.startsWith('/assets/')) assets.push(pathname);
    });
    // The page view is recorded once the page has rendered (RouteEffects): by then it has asked for all it needs.
    const pageView = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/events');
    await page.goto(`${app.url}/`);
    await page.getByRole('button', { name: 'Get Started' }).first().waitFor();
    await pageView;
    // What index.html names (the entry, its preloaded chunks, the first stylesheet), nothing
    // loaded on demand: the signed-in pages and their frame are lazy chunks.
    const html = await (await fetch(`${app.url}/`)).text();
    const named = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.length, 'assets requested').to.be.above(0);
    expect(assets.filter((asset) => !named.includes(asset))).to.deep.equal([]);
    // The Holdings screens' styles (the table, the header's market state) come with the
    // signed-in frame, not with the first stylesheet.
    const appRules = await page.evaluate(() =>
      [...document.styleSheets]
        .flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText))
        .filter((text) => /\.(holdings-table|live-indicator|portfolio-summary|login-card)\b/.test(text)),
    );
    expect(appRules.length, appRules.map((rule) => rule.slice(0, 80)).join('\n')).to.equal(0);
    await page.close();
  });

  it('hides pricing on the know-more page until sign-in', async () => {
    const page = await newPage(browser);
    await page.goto(`${app.url}/know-more`);
    await page.getByText('Pricing information available after login').waitFor();
    const signInLink = page.getByRole('link', { name: 'Sign in to see plans' });
    expect(await signInLink.getAttribute('href')).to.equal('/login?redirect=/know-more');
    expect(await page.getByRole('region', { name: 'Subscription tiers' }).innerText()).not.to.contain('₹');
    await page.close();
  });
});
