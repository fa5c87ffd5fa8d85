/**
 * What the public pages say and the frame of the signed-in pages (docs/pages.md), checked as a
 * reader would, with a screenshot of each page at 1280 px and 375 px in test-results/screenshots/.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { DESKTOP, newPage, PHONE, screenshot } from '../helpers/browser.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { openSignedIn, pageErrors } from './support.ts';
import { holdCalls } from './session-support.ts';

const PRIVACY_SECTIONS = [
  'Information we collect',
  'How we use your information',
  'How we share information',
  'How we protect your information',
  'How long we keep it',
  'Your rights',
  'Cookies and local storage',
  'Third-party services',
  'Minors under 18',
  'International transfers',
  'Changes to this policy',
  'Contact us',
];

const FAQ_TOPICS = ['Getting started', 'Supported file formats', 'Alerts and notifications', 'Data security'];

const HOW_IT_WORKS = [
  'Sign in with Google',
  'Add your holdings',
  'Set up alerts and rules',
  'Sit back and relax',
];

function headings(page: Page, level: number): Promise<string[]> {
  return page
    .getByRole('main')
    .getByRole('heading', { level })
    .evaluateAll((els) => els.map((el) => (el.textContent ?? '').trim()));
}

interface PublicPage {
  path: string;
  name: string;
  /** Checks the page's content; the page is loaded at 1280 px. */
  check(page: Page): Promise<void>;
}

const PUBLIC_PAGES: PublicPage[] = [
  {
    path: '/',
    name: 'landing',
    async check(page) {
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.getByRole('button', { name: 'Get Started' }).count()).to.equal(3);
      expect(await headings(page, 3)).to.include.members([
        'Real-time Tracking',
        'Smart Alerts',
        'Smarter Rules',
      ]);
      expect(await page.getByRole('banner').count()).to.equal(1);
      expect(await page.getByRole('contentinfo').count()).to.equal(1);
    },
  },
  {
    path: '/terms',
    name: 'terms',
    async check(page) {
      await page.getByRole('heading', { level: 1, name: 'Terms and Conditions' }).waitFor();
      await page.getByText('Last updated: July 2025').waitFor();
      const text = await page.getByRole('main').innerText();
      expect(text)
        .to.match(/at least 18 years old/)
        .and.to.contain('Google account');
    },
  },
  {
    path: '/privacy',
    name: 'privacy',
    async check(page) {
      await page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor();
      const numbered = (await headings(page, 2)).filter((h) => /^\d+\. /.test(h));
      expect(numbered).to.deep.equal(PRIVACY_SECTIONS.map((title, i) => `${i + 1}. ${title}`));
      const retention = page.getByRole('region', { name: '5. How long we keep it' });
      expect(await retention.innerText())
        .to.contain('Alert and rule execution history: 2 years.')
        .and.contain('Usage logs: 1 year.');
    },
  },
  {
    path: '/contact',
    name: 'contact',
    async check(page) {
      await page.getByRole('heading', { level: 1, name: 'Contact us' }).waitFor();
      for (const title of [
        'Email support',
        'General inquiries',
        'Feature requests',
        'About Portfolio Guard',
      ]) {
        await page.getByRole('region', { name: title }).waitFor();
      }
      expect(await page.getByRole('main').innerText()).to.contain('within 24 hours');
      const faq = page.getByRole('region', { name: 'Frequently asked questions' });
      expect(await faq.getByRole('heading', { level: 3 }).allTextContents()).to.deep.equal(FAQ_TOPICS);
      const mail = page.getByRole('link', { name: 'support@portfolioguard.in' });
      expect(await mail.getAttribute('href')).to.match(/^mailto:support@portfolioguard\.in/);
    },
  },
  {
    path: '/know-more',
    name: 'know-more',
    async check(page) {
      await page.getByRole('heading', { level: 1 }).waitFor();
      const steps = (await headings(page, 2)).filter((h) => h.startsWith('Step '));
      expect(steps).to.deep.equal(HOW_IT_WORKS.map((title, i) => `Step ${i + 1}: ${title}`));
      const tiers = page.getByRole('region', { name: 'Subscription tiers' });
      expect(await tiers.getAttribute('id')).to.equal('subscription-tiers');
      await tiers.getByText('Pricing information available after login').waitFor();
      const signInLink = tiers.getByRole('link', { name: 'Sign in to see plans' });
      expect(await signInLink.getAttribute('href')).to.equal('/login?redirect=/know-more');
      expect(await tiers.getByRole('heading', { name: 'Advanced' }).count()).to.equal(0);
      const pricing = page
        .getByRole('navigation', { name: 'Product' })
        .getByRole('link', { name: 'Pricing' });
      expect(await pricing.getAttribute('href')).to.equal('/login?redirect=/know-more%23subscription-tiers');
    },
  },
];

describe('e2e: what the pages say', function () {
  this.timeout(60_000);
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    ({ app, browser } = await startBrowserSuite());
  });
  after(() => stopBrowserSuite({ app, browser }));

  for (const entry of PUBLIC_PAGES) {
    it(`${entry.path} shows its documented content (${entry.name})`, async () => {
      const page = await newPage(browser, DESKTOP);
      const errors = pageErrors(page);
      await page.goto(`${app.url}${entry.path}`);
      await entry.check(page);
      await screenshot(page, `${entry.name}-desktop`);
      await page.setViewportSize(PHONE);
      await screenshot(page, `${entry.name}-phone`);
      expect(errors).to.deep.equal([]);
      await page.close();
    });
  }

  it('/know-more shows the subscription tiers to a signed-in user, reached from the footer Pricing link', async () => {
    const user = await signIn(app, { tier: 'advanced' });
    const page = await openSignedIn(browser, app, user, '/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const pricing = page.getByRole('navigation', { name: 'Product' }).getByRole('link', { name: 'Pricing' });
    expect(await pricing.getAttribute('href')).to.equal('/know-more#subscription-tiers');
    await pricing.click();
    await page.waitForURL(`${app.url}/know-more#subscription-tiers`);
    const tiers = page.getByRole('region', { name: 'Subscription tiers' });
    await tiers.getByRole('heading', { level: 3 }).first().waitFor();
    expect(await tiers.getByRole('heading', { level: 3 }).allTextContents()).to.deep.equal([
      'Basic',
      'Advanced',
    ]);
    const advanced = tiers.getByRole('article').filter({ hasText: 'Advanced' });
    await advanced.getByText('Your plan').waitFor();
    expect(await page.getByText('Pricing information available after login').count()).to.equal(0);
    await tiers.getByRole('heading', { name: 'Advanced' }).waitFor({ state: 'visible' });
    expect(
      await tiers.evaluate((el) => el.getBoundingClientRect().top < window.innerHeight),
      'the page scrolled to #subscription-tiers',
    ).to.equal(true);
    await screenshot(page, 'know-more-signed-in-desktop');
    await page.context().close();
  });

  describe('the signed-in frame', () => {
    let user: SignedInUser;
    before(async () => {
      user = await signIn(app, { name: 'Priya Nair' });
    });

    it('has the signed-in header: logo, Home/Holdings/History, settings icon, user, Logout', async () => {
      const page = await openSignedIn(browser, app, user, '/holdings');
      const header = page.getByRole('banner');
      const nav = header.getByRole('navigation', { name: 'Main' }).first();
      await nav.waitFor();
      const links = await nav
        .getByRole('link')
        .evaluateAll((els) => els.map((el) => [el.textContent?.trim(), el.getAttribute('href')]));
      expect(links).to.deep.equal([
        ['Home', '/dashboard'],
        ['Holdings', '/holdings'],
        ['History', '/history'],
      ]);
      expect(await nav.getByRole('link', { name: 'Holdings' }).getAttribute('aria-current')).to.equal('page');
      expect(await header.getByRole('link', { name: 'Portfolio Guard home' }).getAttribute('href')).to.equal(
        '/dashboard',
      );
      expect(await header.getByRole('link', { name: 'Settings' }).first().getAttribute('href')).to.equal(
        '/settings',
      );
      const chip = header.locator('.user-chip').first();
      expect(await chip.locator('.avatar').innerText()).to.equal('P');
      expect(await chip.innerText()).to.contain('Priya Nair');

      const footer = page.getByRole('contentinfo');
      for (const [group, names] of [
        ['Product', ['How it Works', 'Contact Us', 'Pricing']],
        ['Support', ['Help Center', 'FAQ', 'Email support']],
        ['Legal', ['Terms and Conditions', 'Privacy Policy']],
      ] as const) {
        const groupLinks = footer.getByRole('navigation', { name: group }).getByRole('link');
        expect(await groupLinks.allTextContents(), group).to.deep.equal(names);
      }
      await screenshot(page, 'signed-in-frame-desktop');
      await page.context().close();
    });

    it('opens the mobile menu on a phone with the same links, the user and Logout', async () => {
      const page = await openSignedIn(browser, app, user, '/dashboard', PHONE);
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      expect(await page.getByRole('button', { name: 'Logout' }).isVisible()).to.equal(false);
      await page.getByRole('button', { name: 'Open menu' }).click();
      const menu = page.locator('#app-mobile-menu');
      expect(await menu.getByRole('link').allTextContents()).to.deep.equal([
        'Home',
        'Holdings',
        'History',
        'Settings',
      ]);
      expect(await menu.innerText()).to.contain('Priya Nair');
      await menu.getByRole('button', { name: 'Logout' }).waitFor({ state: 'visible' });
      await screenshot(page, 'signed-in-menu-phone');
      await page.getByRole('button', { name: 'Close menu' }).click();
      await page.context().close();
    });

    it("reads 'Signing out...' while logging out, then lands on the landing page", async () => {
      const page = await openSignedIn(browser, app, await signIn(app), '/dashboard');
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      const logout = await holdCalls(page, '**/api/auth/logout');
      await page.getByRole('button', { name: 'Logout' }).click();
      await logout.arrived;
      const busy = page.getByRole('button', { name: 'Signing out...' }).first();
      await busy.waitFor();
      expect(await busy.isDisabled()).to.equal(true);
      await logout.release();
      await page.waitForURL(`${app.url}/`);
      await page.getByRole('button', { name: 'Get Started' }).first().waitFor();
      await page.context().close();
    });
  });
});
