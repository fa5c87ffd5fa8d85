/**
 * Every page state a user meets, at 1280×800 and 375×812, has no serious or critical axe-core
 * violation (issue #28 item 17): the public pages, sign-in with its errors and the failed session
 * check, the Dashboard empty and with holdings, Holdings in both densities with a row, its rules,
 * a draft and a bonus notice open, the upload preview, manual entry, every dialog and
 * confirmation, the bell and a toast, History, Settings with Your data and its deletion dialog,
 * the verify and unsubscribe pages, and an unknown path. A failure lists each violation by state,
 * width and rule id; each state's screenshot lands in test-results/screenshots/a11y-<state>-<width>.png.
 */
import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe.ts';
import { DESKTOP, newPage, screenshotDir } from '../helpers/browser.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { createRule, publishPrices } from '../server/rules/support.ts';
import {
  confirming,
  dialog,
  expandRow,
  failing,
  holdings,
  item,
  NEXT_DHAN_STATEMENT,
  PHONE_812,
  PRICES,
  ruleTool,
  seedInvestor,
  uploadPreview,
  visit,
  wizardAt,
  type PageState,
  type Scene,
  type Who,
} from './accessibility-support.ts';
import * as steps from './support.ts';

/** ONGC's price now: the toast state crosses its stop, at each width. */
let ongcPrice = PRICES.ONGC![0];

const STATES: PageState[] = [
  {
    name: 'landing',
    who: 'visitor',
    open: visit('/', (p) => p.getByRole('button', { name: 'Get Started' })),
  },
  {
    name: 'sign-in',
    who: 'visitor',
    open: visit('/login', (p) => p.getByRole('button', { name: /Sign in/ })),
  },
  {
    name: 'sign-in, a refused demo sign-in',
    who: 'visitor',
    async open(p, { url }) {
      await p.goto(`${url}/login`);
      await p.getByLabel('Email').fill('refused-a11y@example.com');
      // Spaces only: the browser accepts the field, the server refuses the blank name (400).
      await p.getByLabel('Name').fill('   ');
      await p.getByRole('button', { name: 'Sign in (demo)' }).click();
      await p.getByRole('alert').filter({ hasText: 'Login failed. Please try again.' }).waitFor();
    },
  },
  {
    name: 'sign-in, its options unreachable',
    who: 'visitor',
    open: failing('**/api/auth/config', '/login', (p) => p.getByText('Sign-in is unavailable right now')),
  },
  {
    name: "the sign-in check unreachable: We couldn't check your sign-in",
    who: 'investor',
    open: failing('**/api/auth/verify', '/dashboard', (p) =>
      p.getByRole('button', { name: 'Continue signed out' }),
    ),
  },
  {
    name: 'terms',
    who: 'visitor',
    open: visit('/terms', (p) => p.getByRole('heading', { level: 1, name: 'Terms and Conditions' })),
  },
  {
    name: 'privacy',
    who: 'visitor',
    open: visit('/privacy', (p) => p.getByRole('heading', { level: 1, name: 'Privacy Policy' })),
  },
  {
    name: 'contact',
    who: 'visitor',
    open: visit('/contact', (p) => p.getByRole('heading', { level: 1, name: 'Contact us' })),
  },
  {
    name: 'know more',
    who: 'visitor',
    open: visit('/know-more', (p) => p.getByRole('heading', { level: 1, name: 'How Portfolio Guard works' })),
  },
  {
    name: 'an unknown path, sent to the landing page',
    who: 'visitor',
    async open(p, { url }) {
      await visit('/no-such-page', (page) => page.getByRole('button', { name: 'Get Started' }))(p, {
        url,
      } as Scene);
      expect(new URL(p.url()).pathname).to.equal('/');
    },
  },
  {
    name: 'verify, no token',
    who: 'visitor',
    open: visit('/verify-endpoint', (p) => p.getByText('Invalid verification link.')),
  },
  {
    name: 'verify, a refused token',
    who: 'visitor',
    open: visit('/verify-endpoint?token=not-a-token', (p) =>
      p.getByRole('link', { name: 'Go to Notification Settings' }),
    ),
  },
  {
    name: 'unsubscribe, asking',
    who: 'visitor',
    open: visit('/unsubscribe?token=abc', (p) => p.getByRole('button', { name: 'Stop alert emails' })),
  },
  {
    name: 'unsubscribe, a link without its token',
    who: 'visitor',
    open: visit('/unsubscribe', (p) => p.getByText('This unsubscribe link is not valid.', { exact: false })),
  },
  {
    name: 'dashboard, empty',
    who: 'newcomer',
    open: visit('/dashboard', (p) => p.getByText('Getting Started')),
  },
  {
    name: 'holdings, empty',
    who: 'newcomer',
    open: visit('/holdings', (p) => p.getByText('No holdings yet')),
  },
  {
    name: 'history, empty',
    who: 'newcomer',
    open: visit('/history', (p) => p.getByText('No executions found')),
  },
  {
    name: 'dashboard with holdings',
    who: 'investor',
    open: visit('/dashboard', (p) => p.getByRole('list', { name: 'Allocation by holding' })),
  },
  { name: 'holdings, comfortable', who: 'investor', open: (p, s) => holdings(p, s) },
  { name: 'holdings, compact', who: 'investor', open: (p, s) => holdings(p, s, 'Compact') },
  {
    name: 'holdings, a row open with its rules and a draft',
    who: 'investor',
    async open(p, s) {
      await holdings(p, s);
      await expandRow(p, 'SBIN');
      const rules = await expandRow(p, 'RELIANCE');
      await rules.getByRole('button', { name: 'Add Rule for RELIANCE (NSE)' }).click();
      await p.getByRole('form', { name: 'New rule for RELIANCE (NSE)' }).waitFor();
      await p.getByText('Loading chart…').waitFor({ state: 'detached' });
    },
  },
  {
    name: 'holdings, compact, a row open',
    who: 'investor',
    open: (p, s) => holdings(p, s, 'Compact').then(() => expandRow(p, 'RELIANCE')),
  },
  {
    name: 'holdings, a bonus notice and the rules adjusted for it',
    who: 'investor',
    async open(p, s) {
      await holdings(p, s);
      const rules = await expandRow(p, 'LALPATHLAB');
      await rules.locator('.holding-notice').waitFor();
      await rules.locator('.rule-adjusted').first().waitFor();
      await rules.locator('.holding-notice').scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'holdings, a draft needing attention',
    who: 'investor',
    async open(p, s) {
      await holdings(p, s);
      await (await expandRow(p, 'IDEA')).getByRole('button', { name: 'Add a rule for IDEA (NSE)' }).click();
      await p.getByRole('button', { name: 'Save All' }).click();
      await p
        .getByRole('form', { name: 'New rule for IDEA (NSE)' })
        .getByText(/^Needs attention:/)
        .waitFor();
    },
  },
  {
    name: 'holdings, an inline edit open',
    who: 'investor',
    open: (p, s) => holdings(p, s).then(() => steps.editInline(item(p, 'INFY'), 'INFY', 'quantity')),
  },
  {
    name: 'manual entry, with its errors',
    who: 'investor',
    async open(p, s) {
      await holdings(p, s);
      const form = await steps.openManualEntry(p);
      await form.getByLabel('Quantity (row 1)').fill('2.5');
      await form.locator('button[type=submit]').click();
      await form.getByText('Row 1:', { exact: false }).first().waitFor();
    },
  },
  {
    name: 'upload dialog, no file yet',
    who: 'investor',
    open: visit('/holdings?upload=csv', (p) => steps.uploadDialog(p).locator('input[type=file]')),
  },
  {
    name: 'upload preview with errors',
    who: 'investor',
    open: async (p, s) =>
      (await uploadPreview(p, s, 'Symbol,Quantity,Buy Price\nINFY,-5,1500\nTCS,2.5,3500\n'))
        .locator('.error-box')
        .waitFor(),
  },
  {
    name: 'upload preview, a typo and its suggestion',
    who: 'investor',
    open: async (p, s) =>
      (await uploadPreview(p, s, 'Symbol,Quantity,Buy Price\nRELIANSE,10,2500\nINFY,5,1500\n'))
        .getByRole('button', { name: /^Use RELIANCE/ })
        .waitFor(),
  },
  {
    name: 'upload preview, a re-upload naming the holdings and the rule it removes',
    who: 'investor',
    async open(p, s) {
      const upload = await uploadPreview(p, s, NEXT_DHAN_STATEMENT);
      await upload.getByRole('button', { name: 'Leave out row 2' }).click();
      await upload.getByRole('radio', { name: /^Dhan/ }).check();
      await upload.getByRole('region', { name: 'Exit rules this upload deletes' }).waitFor();
    },
  },
  {
    name: 'Price Guard intro',
    who: 'investor',
    open: visit('/holdings?magic-setup=true', (p) => p.getByText(/will get a draft rule/)),
  },
  {
    name: 'Price Guard review',
    who: 'investor',
    async open(p, { url }) {
      await p.goto(`${url}/holdings?magic-setup=true`);
      await dialog(p, 'Price Guard - Smart Protection').getByRole('button', { name: 'Price Guard' }).click();
      await dialog(p, 'Review Price Guard rules')
        .getByRole('button', { name: /^Save \d+ rules?$/ })
        .waitFor();
    },
  },
  {
    name: 'New Rule',
    who: 'investor',
    open: async (p, s) => (await ruleTool(p, s, 'New Rule', 'New rule')).getByText(/^LTP ₹/).waitFor(),
  },
  { name: 'rule wizard, step 1', who: 'investor', open: wizardAt(1, 'Rule name') },
  {
    name: 'rule wizard, step 2',
    who: 'investor',
    open: wizardAt(2, 'Which of your INFY holdings does it guard?'),
  },
  { name: 'rule wizard, step 3', who: 'investor', open: wizardAt(3, 'Trigger value') },
  {
    name: 'rule wizard, step 4',
    who: 'investor',
    open: wizardAt(4, 'Automatic sell orders are coming soon'),
  },
  {
    name: 'Manage Position Rules, one rule selected',
    who: 'investor',
    async open(p, s) {
      const manage = await ruleTool(p, s, 'Manage Rules', 'Manage Position Rules');
      await manage.locator('.manage-row').first().getByRole('checkbox').check();
      await manage.getByText('1 selected').waitFor();
    },
  },
  {
    name: 'Manage Position Rules, confirm: delete the selected rules',
    who: 'investor',
    async open(p, s) {
      const manage = await ruleTool(p, s, 'Manage Rules', 'Manage Position Rules');
      const rows = manage.locator('.manage-row');
      for (const at of [0, 1]) await rows.nth(at).getByRole('checkbox').check();
      await manage
        .getByRole('group', { name: 'Selected rules' })
        .getByRole('button', { name: 'Delete' })
        .click();
      await dialog(p, 'Delete 2 rules?').waitFor();
    },
  },
  {
    name: 'Manage Position Rules, a rule being edited',
    who: 'investor',
    async open(p, s) {
      const manage = await ruleTool(p, s, 'Manage Rules', 'Manage Position Rules');
      await manage.getByRole('button', { name: /^Edit RELIANCE/ }).click();
      await manage.getByRole('button', { name: 'Save changes' }).waitFor();
    },
  },
  {
    name: 'Manage Position Rules, Execution History',
    who: 'investor',
    async open(p, s) {
      const manage = await ruleTool(p, s, 'Manage Rules', 'Manage Position Rules');
      await manage.getByRole('tab', { name: 'Execution History' }).click();
      await manage.getByRole('tabpanel').getByText('SBIN', { exact: true }).first().waitFor();
    },
  },
  {
    name: 'Apply Rule Templates, with its error',
    who: 'investor',
    async open(p, s) {
      const templates = await ruleTool(p, s, 'Apply Templates', 'Apply Rule Templates');
      await templates.getByRole('button', { name: 'Apply Template' }).click();
      await templates.getByText('Please choose at least one holding').waitFor();
    },
  },
  {
    name: 'confirm: delete a holding',
    who: 'investor',
    open: confirming('Delete TCS?', (p) => p.getByRole('button', { name: 'Delete TCS (NSE)' }).click()),
  },
  {
    name: 'confirm: delete all holdings',
    who: 'investor',
    open: confirming('Delete all holdings?', (p) =>
      p.getByRole('button', { name: 'Delete All Holdings' }).click(),
    ),
  },
  {
    name: 'confirm: delete a rule',
    who: 'investor',
    open: confirming('Delete this rule?', async (p) =>
      (await expandRow(p, 'RELIANCE')).getByRole('button', { name: /^Delete / }).click(),
    ),
  },
  {
    name: 'confirm: enable a fired stop whose level is above the price',
    who: 'investor',
    async open(p, s) {
      const manage = await ruleTool(p, s, 'Manage Rules', 'Manage Position Rules');
      await manage.getByRole('button', { name: 'Enable SBIN: Fixed stop loss 5%' }).click();
      await dialog(p, 'Enable this rule?').waitFor();
    },
  },
  {
    name: 'the bell open, with a new price alert',
    who: 'investor',
    async open(p, s) {
      await holdings(p, s);
      await p.getByRole('button', { name: /^Alerts,/ }).click();
      const panel = p.getByRole('region', { name: 'Alerts', exact: true });
      await panel.getByText('SBIN', { exact: false }).first().waitFor();
      await panel.getByRole('button', { name: '+ New price alert' }).click();
      await panel.getByLabel('Price in rupees').waitFor();
    },
  },
  {
    name: 'the phone menu',
    who: 'investor',
    only: 'phone',
    async open(p, { url }) {
      await p.goto(`${url}/dashboard`);
      await p.getByRole('button', { name: 'Open menu' }).click();
      await p.getByRole('button', { name: 'Close menu' }).waitFor();
    },
  },
  {
    name: 'history with executions',
    who: 'investor',
    open: visit('/history', (p) => p.getByText('SBIN', { exact: true }).locator('visible=true')),
  },
  {
    name: 'settings: endpoints with the add form, protection',
    who: 'investor',
    async open(p, { url }) {
      await p.goto(`${url}/settings`);
      await p
        .getByRole('list', { name: 'Notification endpoints' })
        .getByText(/alerts-a11y/)
        .waitFor();
      await p.getByRole('button', { name: 'Add', exact: true }).click();
      await p.getByLabel('Email Address').waitFor();
    },
  },
  {
    name: 'settings: your data',
    who: 'investor',
    async open(p, { url }) {
      await p.goto(`${url}/settings`);
      const card = p.getByRole('region', { name: 'Your data' });
      await card.getByRole('button', { name: 'Download my data' }).waitFor();
      await card.scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'settings: Delete my account, its email half typed',
    who: 'investor',
    async open(p, { url, investor }) {
      await p.goto(`${url}/settings`);
      await p
        .getByRole('region', { name: 'Your data' })
        .getByRole('button', { name: 'Delete my account' })
        .click();
      const asking = dialog(p, 'Delete your account?');
      await asking.getByLabel(`Type ${investor.email} to confirm`).fill(investor.email.slice(0, 5));
      expect(await asking.getByRole('button', { name: 'Delete my account' }).isDisabled()).to.equal(true);
    },
  },
  {
    // Last: ONGC's stop fires while the page is open, so ONGC falls at each width.
    name: 'a toast of a rule that fired',
    who: 'investor',
    async open(p, s) {
      await holdings(p, s);
      // The tab's socket is up (the header no longer says Connecting), so the alert reaches it.
      await p.locator('.live-indicator:not([data-tone="pending"])').waitFor();
      const rule = { symbol: 'ONGC', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 };
      const made = await createRule(s.app, s.investor, rule);
      expect(made.status, String(made.body.error)).to.equal(201);
      ongcPrice = Math.round(ongcPrice * 90) / 100;
      await publishPrices(s.app, { ONGC: ongcPrice });
      await p.locator('.toast', { hasText: 'ONGC' }).waitFor();
    },
  },
];

describe('e2e: no serious axe violation on any page state, at 1280 and 375 px', function () {
  this.timeout(60_000);
  const suite = steps.signedInSuite({
    name: 'Lakshmi Narayanan',
    embeddedStreamer: false,
    ownDatabase: true,
    seed: seedInvestor,
  });
  const people: Partial<Record<Who, SignedInUser>> = {};
  before(async () => {
    people.investor = suite.user;
    people.newcomer = await signIn(suite.app, { name: 'Naveen Kumar' });
    await mkdir(screenshotDir, { recursive: true });
  });

  for (const [width, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE_812],
  ] as const) {
    describe(`at ${viewport.width} px`, () => {
      const pages: Partial<Record<Who, Page>> = {};
      const contexts: BrowserContext[] = [];
      before(async () => {
        const { app, browser } = suite;
        pages.visitor = await newPage(browser, viewport);
        for (const who of ['newcomer', 'investor'] as const) {
          contexts.push(await steps.signedInContext(browser, app, people[who]!, viewport));
          pages[who] = await contexts.at(-1)!.newPage();
        }
        // The amounts shown, so that their colours are checked too (remembered in the context).
        await pages.investor!.goto(`${app.url}/holdings`);
        await steps.showValues(pages.investor!);
      });
      after(async () => {
        await pages.visitor?.close();
        for (const context of contexts) await context.close();
      });

      for (const state of STATES.filter((s) => !s.only || s.only === width)) {
        it(state.name, async () => {
          const page = pages[state.who]!;
          await state.open(page, { url: suite.app.url, app: suite.app, investor: suite.user });
          const found = await seriousViolations(page);
          const file = `a11y-${state.name.replace(/\W+/g, '-')}-${viewport.width}.png`;
          await page.screenshot({ path: path.join(screenshotDir, file) });
          expect(found, `${state.name} at ${viewport.width} px:\n  ${found.join('\n  ')}`).to.deep.equal([]);
        });
      }
    });
  }
});
