/**
 * The page states' support for test/e2e/accessibility.test.ts: the investor's holdings and rules
 * (with a bonus applied to one holding), and the steps that open a state.
 */
import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { syncCorporateActions } from '../../server/src/corporate-actions/sync.ts';
import type { TestApp } from '../helpers/app.ts';
import { DESKTOP, type Viewport } from '../helpers/browser.ts';
import { apiClient } from '../helpers/http.ts';
import { readShared } from '../helpers/shared-data.ts';
import type { SignedInUser } from '../helpers/users.ts';
import { addEndpoint, uniqueEmail } from '../server/endpoints/support.ts';
import { bcText } from '../server/corporate-actions/support.ts';
import { addHolding, createRule, publishPrices } from '../server/rules/support.ts';
import * as steps from './support.ts';

export const PHONE_812: Viewport = { width: 375, height: 812 };

/** Last price and previous close of each priced holding; IDEA has none. */
export const PRICES: Record<string, [number, number]> = {
  RELIANCE: [1492.3, 1478.6],
  TCS: [3402.15, 3380],
  INFY: [1512.4, 1500],
  HDFCBANK: [746.7, 740],
  COALINDIA: [480.5, 478],
  ONGC: [240.1, 238],
  SBIN: [1000, 990],
  LALPATHLAB: [3010, 2995],
};

/** The Dhan account a month later: HDFC Bank kept, Coal India (with its rule) and ONGC sold, one unknown row. */
export const NEXT_DHAN_STATEMENT = [
  '"Name","Quantity","Avg Price","Last Traded"',
  '"HDFC Bank",150,"840.00","746.70"',
  '"Zqxv Unheard Of Industries",7,"12.00","11.00"',
].join('\n');

export type Who = 'visitor' | 'newcomer' | 'investor';

/** What a state opens on: the app, and the investor (whose holdings and rules the states show). */
export interface Scene {
  url: string;
  app: TestApp;
  investor: SignedInUser;
}

export interface PageState {
  name: string;
  who: Who;
  /** Only at this width (a state that exists only there, like the phone menu). */
  only?: 'desktop' | 'phone';
  /** Opens the state in `page` (signed in as `who`); resolves once it is on screen. */
  open(page: Page, scene: Scene): Promise<unknown>;
}

export const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });
export const onPhone = (page: Page) => (page.viewportSize()?.width ?? DESKTOP.width) < 768;
export const item = (page: Page, symbol: string) =>
  page.locator(`${onPhone(page) ? 'li.holding-card' : 'tr.holding-row'}[data-symbol="${symbol}"]`);

/** Opens `path` and waits until `ready` shows. */
export const visit =
  (path: string, ready: (page: Page) => Locator) =>
  async (page: Page, { url }: Scene) => {
    await page.goto(`${url}${path}`);
    await ready(page).first().waitFor();
  };

/** The Holdings page in `density`, its rows shown. */
export async function holdings(
  page: Page,
  { url }: Scene,
  density: 'Comfortable' | 'Compact' = 'Comfortable',
) {
  await page.goto(`${url}/holdings`);
  const choice = page.getByRole('button', { name: density, exact: true });
  if ((await choice.getAttribute('aria-pressed')) !== 'true') await choice.click();
  await item(page, 'RELIANCE').waitFor();
}

/** Expands `symbol`'s row (or card) and returns its rules group. */
export async function expandRow(page: Page, symbol: string) {
  await item(page, symbol).locator('.expand-button').click();
  const group = page.getByRole('group', { name: `Rules for ${symbol} (NSE)` });
  await group.waitFor();
  return group;
}

/** The Holdings page with one of the rule tools above the table open. */
export async function ruleTool(page: Page, scene: Scene, button: string, title: string) {
  await holdings(page, scene);
  await page.getByRole('group', { name: 'Rule tools' }).getByRole('button', { name: button }).click();
  await dialog(page, title).waitFor();
  return dialog(page, title);
}

/** The Create Position Rule wizard at `step` (1 to 4), showing `shows`. */
export const wizardAt = (step: number, shows: string) => async (page: Page, scene: Scene) => {
  const wizard = await ruleTool(page, scene, 'Create Rule', 'Create Position Rule');
  await wizard.getByLabel('Rule name').fill('INFY profit target');
  await wizard.getByLabel('Holding').selectOption('NSE:INFY');
  for (let at = 1; at < step; at++) await wizard.getByRole('button', { name: 'Next' }).click();
  await wizard.getByText(shows).first().waitFor();
};

/** The upload dialog with a CSV file of `text` chosen. */
export async function uploadPreview(page: Page, { url }: Scene, text: string) {
  await page.goto(`${url}/holdings?upload=csv`);
  const upload = steps.uploadDialog(page);
  await steps.chooseFile(upload, { name: 'holdings.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
  return upload;
}

/** The Holdings page with `button` pressed and the confirmation `title` asked. */
export const confirming =
  (title: string, press: (page: Page) => Promise<unknown>) => async (p: Page, s: Scene) => {
    await holdings(p, s);
    await press(p);
    await dialog(p, title).waitFor();
  };

/** Opens `path` with `pattern`'s requests failing (as if the network dropped); the page stays. */
export const failing =
  (pattern: string, path: string, ready: (page: Page) => Locator) => async (page: Page, scene: Scene) => {
    await page.route(pattern, (route) => route.abort('internetdisconnected'));
    try {
      await visit(path, ready)(page, scene);
    } finally {
      await page.unroute(pattern);
    }
  };

/**
 * The investor's holdings (five by hand, a Dhan account, LALPATHLAB after its 1:1 bonus) and
 * rules: active, inactive, SBIN's triggered one (a History row and an unread alert), and two on
 * LALPATHLAB adjusted for the bonus; one verified alert email.
 */
export async function seedInvestor(app: TestApp, user: SignedInUser) {
  const prices = Object.entries(PRICES);
  await publishPrices(
    app,
    Object.fromEntries(prices.map(([symbol, [ltp]]) => [symbol, ltp])),
    Object.fromEntries(prices.map(([symbol, [, close]]) => [symbol, close])),
  );
  for (const [symbol, quantity, price] of [
    ['RELIANCE', 25, 1418.6],
    ['TCS', 8, 3900],
    ['INFY', 10, 1400],
    ['IDEA', 1000, 7.41],
    ['SBIN', 40, 680.4],
    ['LALPATHLAB', 10, 2950],
  ] as const)
    await addHolding(app, user, symbol, quantity, price);
  await steps.uploadHoldings(app, user, { csvData: readShared('fixtures/brokers/dhan_holdings.csv') });
  const rule = async (body: Record<string, unknown>) => {
    const res = await createRule(app, user, body);
    if (res.status !== 201) throw new Error(`rule on ${String(body.symbol)}: ${res.body.error}`);
    return res.body.data!;
  };
  await rule({ symbol: 'RELIANCE', trigger_type: 'TRAILING_STOP_LOSS', trigger_value: 7 });
  await rule({
    symbol: 'COALINDIA',
    rule_name: 'Coal India stop',
    trigger_type: 'FIXED_STOP_LOSS',
    trigger_value: 5,
  });
  const off = await rule({ symbol: 'TCS', trigger_type: 'TAKE_PROFIT', trigger_value: 10 });
  await apiClient(app.url).patch(`/api/position-rules/${off.id}`, { is_active: false }, user.token);
  await rule({ symbol: 'SBIN', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 });
  await publishPrices(app, { SBIN: 900 });
  // LALPATHLAB's bonus (the real bc row), read after its ex-date: applied at once (the suite has
  // its own database, so no other worker's app applies it by its clock).
  await rule({ symbol: 'LALPATHLAB', trigger_type: 'FIXED_STOP_LOSS', trigger_value: 8 });
  await rule({ symbol: 'LALPATHLAB', trigger_type: 'TAKE_PROFIT', trigger_value: 20 });
  // Set before the ex-date's open (19 Dec 2025), as if armed then: a bonus adjusts only what was
  // set from cum-bonus prices (docs/exit-rules.md), and this app runs on today's clock.
  await app.runtime.deps.db.execute(
    sql`update position_rules set levels_set_at = '2025-12-01T10:00:00+05:30' where user_id = ${user.id} and symbol = 'LALPATHLAB'`,
  );
  await app.runtime.deps.db.execute(
    sql`update holdings set lot_set_at = '2025-12-01T10:00:00+05:30' where user_id = ${user.id} and symbol = 'LALPATHLAB'`,
  );
  await syncCorporateActions(app.runtime.deps.db, { text: bcText(), source: 'e2e', today: '2025-12-16' });
  const applied = await app.runtime.corporateActions.runOnce();
  expect(applied.map((a) => a.action.symbol)).to.include('LALPATHLAB');
  await publishPrices(app, { LALPATHLAB: 1510 });
  await addEndpoint(app, user.token, { value: uniqueEmail('alerts-a11y') });
}
