import { expect } from 'chai';
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { chromiumPath, isExecutable } from '../../scripts/chromium.mjs';
import { keepOpen } from '../helpers/open-contexts.ts';
import { assertNoHorizontalScroll, launchBrowser, newPage, PHONE, screenshot } from '../helpers/browser.ts';

describe('infra: which Chromium the tests drive', () => {
  it('is CHROMIUM_PATH when it is set', () => {
    expect(chromiumPath({ CHROMIUM_PATH: '/opt/chrome/chrome' })).to.equal('/opt/chrome/chrome');
  });

  it('is otherwise an installed Chromium, the headless shell when there is one', () => {
    const picked = chromiumPath({});
    expect(isExecutable(picked), picked).to.equal(true);
    if (isExecutable('/usr/lib/chromium/chromium-headless-shell')) expect(picked).to.match(/headless-shell$/);
  });
});

describe('infra: headless Chromium helpers', function () {
  this.timeout(60_000);
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(() => browser?.close());

  it('opens pages at the requested viewport, in India time', async () => {
    const page = await newPage(browser, PHONE);
    const seen = await page.evaluate(() => ({
      width: window.innerWidth,
      offsetMinutes: new Date().getTimezoneOffset(),
    }));
    expect(seen).to.deep.equal({ width: PHONE.width, offsetMinutes: -330 });
    await page.close();
  });

  it('tells a page that scrolls sideways from one that fits', async () => {
    const page = await newPage(browser, PHONE);
    await page.setContent('<body style="margin:0"><div style="width:100%">fits</div></body>');
    await assertNoHorizontalScroll(page);
    await page.setContent('<body style="margin:0"><div style="width:600px">too wide</div></body>');
    let error: Error | undefined;
    await assertNoHorizontalScroll(page).catch((err: Error) => (error = err));
    expect(error?.message).to.match(/scrolls horizontally: content is 600px wide in a 375px viewport/);
    await page.close();
  });

  it('writes screenshots under test-results/screenshots', async () => {
    const page = await newPage(browser, PHONE);
    await page.setContent('<h1>Portfolio Guard</h1>');
    const file = await screenshot(page, 'infra smoke');
    expect(file).to.match(/test-results\/screenshots\/infra-smoke\.png$/);
    expect(existsSync(file)).to.equal(true);
    await page.close();
  });
});

describe('infra: the contexts a test opens are closed after it', function () {
  this.timeout(60_000);
  let browser: Browser;
  let fileContext: BrowserContext;
  let testContext: BrowserContext;
  let handedOn: BrowserContext;
  before(async () => {
    browser = await launchBrowser();
    fileContext = await browser.newContext();
  });
  after(() => browser?.close());

  it('opens one context to drop and one to hand on', async () => {
    testContext = await browser.newContext();
    handedOn = keepOpen(await browser.newContext());
    expect(browser.contexts()).to.include.members([fileContext, testContext, handedOn]);
  });

  it('finds the dropped one closed, and the before hook’s and the handed-on one open', () => {
    expect(browser.contexts()).to.have.members([fileContext, handedOn]);
  });
});
