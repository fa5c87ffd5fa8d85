/**
 * Settings' Connect Telegram in Chromium against the real app and the fake Bot API
 * (docs/notifications.md#telegram): the link shown, Start pressed in "Telegram" (the fake posts
 * the update to the webhook), the row flipping to Connected without a reload; Basic's tier
 * sentence; a blocked bot's reason and Reconnect.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { seriousViolations } from '../helpers/axe.ts';
import { assertNoHorizontalScroll, PHONE, screenshot } from '../helpers/browser.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import { startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram.ts';
import { signIn } from '../helpers/users.ts';
import { waitFor } from '../helpers/wait.ts';
import { docsScreenshot, openSignedIn, pageErrors, showUnderHeader } from './support.ts';

const WAITING = 'Waiting for you to press Start in Telegram…';
const TIER = 'Telegram alerts are available on the Advanced tier. Upgrade to connect Telegram.';

let nextChat = 700_000_000 + Math.floor(Math.random() * 1_000_000) * 100;

function telegramRow(page: Page) {
  return page
    .getByRole('list', { name: 'Notification endpoints' })
    .getByRole('listitem')
    .filter({ hasText: 'Telegram' });
}

/** Clicks Connect Telegram and returns the link Settings shows. */
async function connect(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Connect Telegram' }).click();
  const open = page.getByRole('link', { name: 'Open Telegram' });
  await open.waitFor();
  const link = (await open.getAttribute('href'))!;
  expect(await page.getByRole('textbox', { name: 'Or open this link on your phone' }).inputValue()).to.equal(
    link,
  );
  return link;
}

describe('e2e: Settings, Connect Telegram', function () {
  this.timeout(90_000);
  let fake: FakeTelegram;
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    fake = await startFakeTelegram();
    ({ app, browser } = await startBrowserSuite({ env: fake.env }));
  });
  after(async () => {
    await stopBrowserSuite({ app, browser });
    await fake.close();
  });

  it('Connect shows the link; pressing Start in Telegram turns the row Connected without a reload', async () => {
    const user = await signIn(app, { tier: 'advanced', name: 'Asha Verma' });
    const page = await openSignedIn(browser, app, user, '/settings');
    const errors = pageErrors(page);
    const link = await connect(page);
    expect(link).to.match(/^https:\/\/t\.me\/PortfolioGuardTestBot\?start=[A-Za-z0-9_-]{43}$/);
    const row = telegramRow(page);
    await row.getByText(WAITING).waitFor();
    await screenshot(page, 'settings-telegram-link');
    expect(await seriousViolations(page)).to.deep.equal([]);
    expect(await page.getByRole('link', { name: 'Open Telegram' }).getAttribute('target')).to.equal('_blank');

    const chatId = ++nextChat;
    const token = new URL(link).searchParams.get('start')!;
    expect((await fake.simulateStart(app.url, { chatId, token, username: 'asha_k' })).status).to.equal(200);
    await row.getByText('Connected · @asha_k').waitFor();
    expect(await page.getByRole('link', { name: 'Open Telegram' }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Connect Telegram' }).count()).to.equal(0);
    expect(await row.getByRole('checkbox', { name: 'Active' }).isChecked()).to.equal(true);
    await waitFor('the welcome', () => fake.messagesTo(chatId)[0]);

    await page.mouse.move(0, 0);
    await docsScreenshot(page, 'settings-telegram-1280.png');
    const phone = await openSignedIn(browser, app, user, '/settings', PHONE);
    await telegramRow(phone).getByText('Connected · @asha_k').waitFor();
    await assertNoHorizontalScroll(phone);
    await showUnderHeader(phone.getByRole('heading', { name: 'Notifications' }));
    await docsScreenshot(phone, 'settings-telegram-375.png');
    expect(errors).to.deep.equal([]);
  });

  it('a blocked bot shows the reason and Reconnect, which offers a new link', async () => {
    const user = await signIn(app, { tier: 'advanced' });
    const page = await openSignedIn(browser, app, user, '/settings', PHONE);
    const link = await connect(page);
    const chatId = ++nextChat;
    await fake.simulateStart(app.url, {
      chatId,
      token: new URL(link).searchParams.get('start')!,
      firstName: 'Ravi',
    });
    const row = telegramRow(page);
    await row.getByText('Connected · Ravi').waitFor();
    await fake.simulateBlock(app.url, { chatId });
    await row.getByText('You blocked the bot in Telegram').waitFor();
    expect(await row.getByRole('checkbox', { name: 'Active' }).isChecked()).to.equal(false);
    await screenshot(page, 'settings-telegram-blocked-375');
    await row.getByRole('button', { name: 'Reconnect' }).click();
    const again = (await page.getByRole('link', { name: 'Open Telegram' }).getAttribute('href'))!;
    expect(again).not.to.equal(link);
    await assertNoHorizontalScroll(page);
  });

  it('Basic sees the tier sentence and no Connect button', async () => {
    const user = await signIn(app);
    const page = await openSignedIn(browser, app, user, '/settings');
    await page.getByText(TIER).waitFor();
    expect(await page.getByRole('button', { name: 'Connect Telegram' }).count()).to.equal(0);
  });
});
