/**
 * Settings → Your data in Chromium against the real app (docs/privacy.md): "Download my data"
 * saves the export file; "Delete my account" asks for the account's email, keeps its button
 * disabled until it matches, then deletes, signs out to the landing page with a notice, and the
 * old token is refused. Screenshots of the card at 1280 and 375 px.
 */
import { ACCOUNT_TEXTS } from '@app/common/api/account';
import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { assertNoHorizontalScroll, DESKTOP, PHONE, screenshot, type Viewport } from '../helpers/browser.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { apiClient } from '../helpers/http.ts';
import { signIn } from '../helpers/users.ts';
import { docsScreenshot, openSignedIn, pageErrors, showUnderHeader } from './support.ts';

const yourData = (page: Page) => page.getByRole('region', { name: 'Your data' });

describe('e2e: Settings, your data', function () {
  this.timeout(60_000);
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    ({ app, browser } = await startBrowserSuite());
  });
  after(() => stopBrowserSuite({ app, browser }));

  it('"Download my data" saves the export file of the account', async () => {
    const user = await signIn(app, { name: 'Meera Export' });
    const page = await openSignedIn(browser, app, user, '/settings');
    const errors = pageErrors(page);
    const download = page.waitForEvent('download');
    await yourData(page).getByRole('button', { name: 'Download my data' }).click();
    const file = await download;
    expect(file.suggestedFilename()).to.match(/^portfolio-guard-export-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(await readFile((await file.path())!, 'utf8')) as { account: { email: string } };
    expect(data.account.email).to.equal(user.email);
    expect(errors).to.deep.equal([]);
  });

  it('"Delete my account" waits for the typed email, deletes, and signs out to the landing page', async () => {
    const user = await signIn(app, { name: 'Meera Delete' });
    await apiClient(app.url).post(
      '/api/holdings/manual',
      { symbol: 'TCS', exchange: 'NSE', quantity: 1, average_price: 3000 },
      user.token,
    );
    const page = await openSignedIn(browser, app, user, '/settings');
    const errors = pageErrors(page);
    await yourData(page).getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    const confirm = dialog.getByRole('button', { name: 'Delete my account' });
    const typed = dialog.getByLabel(`Type ${user.email} to confirm`);
    expect(await confirm.isDisabled()).to.equal(true);
    await typed.fill(user.email.slice(0, -1));
    expect(await confirm.isDisabled(), 'not the whole address yet').to.equal(true);
    await typed.fill(user.email.toUpperCase());
    expect(await confirm.isDisabled(), 'the address in capitals matches').to.equal(false);
    await confirm.click();

    await page.waitForURL(`${app.url}/`);
    await page.getByRole('status').filter({ hasText: ACCOUNT_TEXTS.deleted }).waitFor();
    await screenshot(page, 'landing-account-deleted');
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).to.equal(null);
    expect((await apiClient(app.url).get('/api/auth/profile', user.token)).status).to.equal(401);
    expect(errors).to.deep.equal([]);
  });

  for (const [viewport, width] of [
    [DESKTOP, '1280'],
    [PHONE, '375'],
  ] as Array<[Viewport, string]>) {
    it(`shows the Your data card and its dialog without a sideways scroll at ${width} px`, async () => {
      const user = await signIn(app, { name: 'Meera Shot', email: `meera.${width}@example.com` });
      const page = await openSignedIn(browser, app, user, '/settings', viewport);
      const errors = pageErrors(page);
      const card = yourData(page);
      await card.getByRole('button', { name: 'Download my data' }).waitFor();
      await assertNoHorizontalScroll(page);
      await showUnderHeader(card);
      await docsScreenshot(page, `settings-your-data-${width}.png`);
      await card.getByRole('button', { name: 'Delete my account' }).click();
      await page.getByRole('dialog', { name: 'Delete your account?' }).getByRole('textbox').fill('meera');
      await docsScreenshot(page, `settings-delete-account-${width}.png`);
      expect(errors).to.deep.equal([]);
    });
  }
});
