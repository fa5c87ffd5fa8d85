/**
 * What each endpoint receives, in Settings (docs/notifications.md#what-each-endpoint-receives), in
 * Chromium against the real app: the three ticks save on change, a failed save goes back and says
 * what was not saved with a way to try again, and no endpoint receiving alerts is warned about.
 */
import { NO_ALERT_ENDPOINT_WARNING } from '@app/common/api/endpoints';
import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { notificationEndpoints } from '../../server/src/db/schema.ts';
import type { TestApp } from '../helpers/app.ts';
import { seriousViolations } from '../helpers/axe.ts';
import { assertNoHorizontalScroll, PHONE } from '../helpers/browser.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { waitFor } from '../helpers/wait.ts';
import { addEndpoint, uniqueEmail } from '../server/endpoints/support.ts';
import { docsScreenshot, openSignedIn, pageErrors } from './support.ts';

const KINDS = ['Alerts', 'Evening digest', 'Corporate actions'];

function endpointRow(page: Page, value: string) {
  return page
    .getByRole('list', { name: 'Notification endpoints' })
    .getByRole('listitem')
    .filter({ hasText: value });
}

async function ticks(row: ReturnType<typeof endpointRow>): Promise<boolean[]> {
  return Promise.all(KINDS.map((name) => row.getByRole('checkbox', { name }).isChecked()));
}

describe('e2e: Settings, what each endpoint receives', function () {
  this.timeout(90_000);
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    ({ app, browser } = await startBrowserSuite());
  });
  after(() => stopBrowserSuite({ app, browser }));

  const storedNotices = async (user: SignedInUser) =>
    (
      await app.runtime.deps.db
        .select({ value: notificationEndpoints.value, notices: notificationEndpoints.notices })
        .from(notificationEndpoints)
        .where(eq(notificationEndpoints.userId, user.id))
    ).reduce<Record<string, string[]>>((all, e) => ({ ...all, [e.value]: e.notices }), {});

  it('saves each tick on change, and keeps it after a reload', async () => {
    const user = await signIn(app);
    const other = uniqueEmail('asha-phone');
    await addEndpoint(app, user.token, { value: other });
    const page = await openSignedIn(browser, app, user, '/settings');
    const errors = pageErrors(page);
    const account = endpointRow(page, user.email);
    await account.getByRole('checkbox', { name: 'Alerts' }).waitFor();
    expect(await ticks(account), 'every kind by default').to.deep.equal([true, true, true]);
    expect(await account.getByRole('group', { name: `Receives at ${user.email}` }).count()).to.equal(1);

    const saved = page.waitForResponse((res) => res.request().method() === 'PATCH' && res.status() === 200);
    await account.getByRole('checkbox', { name: 'Evening digest' }).uncheck();
    await saved;
    const added = endpointRow(page, other);
    const savedToo = page.waitForResponse(
      (res) => res.request().method() === 'PATCH' && res.status() === 200,
    );
    await added.getByRole('checkbox', { name: 'Corporate actions' }).uncheck();
    await savedToo;
    expect(await storedNotices(user)).to.deep.equal({
      [user.email]: ['alert', 'corporate_action'],
      [other]: ['alert', 'digest'],
    });

    await page.reload();
    await account.getByRole('checkbox', { name: 'Alerts' }).waitFor();
    expect(await ticks(account)).to.deep.equal([true, false, true]);
    expect(await ticks(endpointRow(page, other))).to.deep.equal([true, true, false]);
    expect(await page.getByText(NO_ALERT_ENDPOINT_WARNING).count()).to.equal(0);

    expect(await seriousViolations(page)).to.deep.equal([]);
    await assertNoHorizontalScroll(page);
    const card = page.getByRole('region', { name: 'Notifications' });
    await card.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 80));
    await docsScreenshot(page, 'settings-notices-1280.png');
    await page.setViewportSize(PHONE);
    await assertNoHorizontalScroll(page);
    await account.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 80));
    await docsScreenshot(page, 'settings-notices-375.png');
    expect(errors).to.deep.equal([]);
  });

  it('goes back on a failed save, says what was not saved, and saves it on Try again', async () => {
    const user = await signIn(app);
    const page = await openSignedIn(browser, app, user, '/settings');
    const account = endpointRow(page, user.email);
    const alerts = account.getByRole('checkbox', { name: 'Alerts' });
    await alerts.waitFor();

    await page.route('**/api/notification-endpoints/*', (route) =>
      route.request().method() === 'PATCH' ? route.abort('connectionreset') : route.continue(),
    );
    // A click, not uncheck(): the refused save may put the tick back before Playwright looks,
    // which uncheck() reports as a click that changed nothing.
    await alerts.click();
    const failure = account.getByRole('alert');
    await failure.waitFor();
    expect(await failure.innerText()).to.equal(
      'Your choice was not saved: Alerts off, Evening digest on, Corporate actions on. Try again',
    );
    expect(await alerts.isChecked(), 'back to what is saved').to.equal(true);
    expect(await page.getByText(NO_ALERT_ENDPOINT_WARNING).count()).to.equal(0);
    expect((await storedNotices(user))[user.email]).to.deep.equal(['alert', 'digest', 'corporate_action']);

    await page.unroute('**/api/notification-endpoints/*');
    await failure.getByRole('button', { name: 'Try again' }).click();
    await page.getByText(NO_ALERT_ENDPOINT_WARNING).waitFor();
    expect(await failure.count()).to.equal(0);
    expect(await alerts.isChecked()).to.equal(false);
    await waitForStored(user, ['digest', 'corporate_action']);

    // Every endpoint without alerts is allowed, and warned about; one tick back ends the warning.
    await alerts.check();
    await page.getByText(NO_ALERT_ENDPOINT_WARNING).waitFor({ state: 'detached' });
    await waitForStored(user, ['alert', 'digest', 'corporate_action']);
  });

  const waitForStored = (user: SignedInUser, notices: string[]) =>
    waitFor(`notices ${notices.join()} stored`, async () =>
      JSON.stringify((await storedNotices(user))[user.email]) === JSON.stringify(notices) ? true : undefined,
    );
});
