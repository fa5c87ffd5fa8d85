/**
 * Alerts on this device in Chromium against the real app (docs/notifications.md#web-push): the
 * web app manifest, its icons and the service worker load with their types; Settings → "Enable
 * alerts on this device", with notifications granted through the browser context, registers
 * /sw.js, subscribes with the server's VAPID key and lists the device; a push sent to that
 * subscription is decrypted by the fake push service. Not granted → the sentence that says so; an
 * iPhone outside the Home Screen → the Home Screen sentence and no button. Screenshots of the card
 * with a device listed at 1280 and 375 px.
 *
 * Headless Chromium has no push service: `pushManager.subscribe` rejects ("Registration failed -
 * permission denied": no Push API in its incognito contexts). So these tests replace ONLY
 * `PushManager.prototype.subscribe`, answering a subscription made by the fake push service (its
 * keys, its endpoint) and recording the applicationServerKey the app passed; permission, the
 * service worker's registration and everything after the subscription are the browser's and the
 * app's own.
 */
import type { ApiNotificationEndpoint } from '@app/common/api/endpoints';
import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { request as httpRequest } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createWebPushSender } from '../../server/src/channels/webpush/sender.ts';
import { notificationEndpoints } from '../../server/src/db/schema.ts';
import type { TestApp } from '../helpers/app.ts';
import { assertNoHorizontalScroll, DESKTOP, PHONE, type Viewport } from '../helpers/browser.ts';
import { startBrowserSuite, stopBrowserSuite } from '../helpers/browser-suite.ts';
import {
  startFakePushService,
  type FakePushService,
  type FakeSubscription,
} from '../helpers/fake-push-service.ts';
import { apiClient } from '../helpers/http.ts';
import { captureLog } from '../helpers/log.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { docsScreenshot, pageErrors, showUnderHeader, signedInContext } from './support.ts';

const ENABLE = 'Enable alerts on this device';
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1';

const notifications = (page: Page) => page.getByRole('region', { name: 'Notifications' });

/** A GET's status, headers and body, as the browser would get them. */
function get(url: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      httpRequest(url, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
        .on('error', reject)
        .end();
    },
  );
}

/** Width and height of a PNG (its IHDR). */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

/** Replaces only PushManager.prototype.subscribe (see the header) with the fake's subscription. */
async function stubSubscribe(context: BrowserContext, subscription: FakeSubscription): Promise<void> {
  const json = { endpoint: subscription.endpoint, expirationTime: null, keys: subscription.keys };
  // A string, not a function: tsx would wrap a function's inner ones in a helper the page lacks.
  await context.addInitScript(`
    PushManager.prototype.subscribe = async function (options) {
      const sub = ${JSON.stringify(json)};
      const key = new Uint8Array(options.applicationServerKey);
      window.subscribedWith = btoa(String.fromCharCode(...key)).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
      return {
        endpoint: sub.endpoint,
        expirationTime: null,
        options: { applicationServerKey: key.buffer, userVisibleOnly: options.userVisibleOnly },
        toJSON: () => sub,
        unsubscribe: async () => true,
        getKey: () => null,
      };
    };
  `);
}

describe('e2e: Settings, alerts on this device (Web Push)', function () {
  this.timeout(90_000);
  let app: TestApp;
  let browser: Browser;
  let fake: FakePushService;

  before(async () => {
    fake = await startFakePushService();
    // The fake listens on 127.0.0.1: only this setting lets the app call it.
    ({ app, browser } = await startBrowserSuite({ env: { WEBPUSH_ALLOW_PRIVATE_ENDPOINTS: 'true' } }));
  });
  after(async () => {
    await stopBrowserSuite({ app, browser });
    await fake.close();
  });

  it('serves the manifest, its icons and /sw.js with their types, never cached stale', async () => {
    const manifest = await get(`${app.url}/manifest.webmanifest`);
    expect(manifest.status).to.equal(200);
    expect(manifest.headers['content-type']).to.equal('application/manifest+json; charset=utf-8');
    expect(manifest.headers['cache-control']).to.equal('no-cache');
    const parsed = JSON.parse(manifest.body.toString()) as {
      name: string;
      short_name: string;
      display: string;
      start_url: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; sizes: string; type: string; purpose: string }[];
    };
    expect(parsed).to.include({
      name: 'Portfolio Guard',
      short_name: 'Portfolio Guard',
      display: 'standalone',
      start_url: '/dashboard',
    });
    expect(parsed.theme_color).to.match(/^#[0-9a-f]{6}$/);
    expect(parsed.background_color).to.match(/^#[0-9a-f]{6}$/);
    const purposes = parsed.icons.map((i) => `${i.sizes} ${i.purpose}`);
    expect(purposes).to.deep.equal(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of parsed.icons) {
      const png = await get(`${app.url}${icon.src}`);
      expect(png.headers['content-type'], icon.src).to.equal('image/png');
      const [size] = icon.sizes.split('x').map(Number);
      expect(pngSize(png.body), icon.src).to.deep.equal({ width: size, height: size });
    }
    const worker = await get(`${app.url}/sw.js`);
    expect(worker.status).to.equal(200);
    expect(worker.headers['content-type']).to.equal('text/javascript; charset=utf-8');
    expect(worker.headers['cache-control']).to.equal('no-cache');
    expect(worker.body.toString()).to.contain("addEventListener('push'");

    // The page links them, and the browser registers the worker for the whole app (CSP allows it).
    const user = await signIn(app);
    const page = await (await signedInContext(browser, app, user)).newPage();
    const errors = pageErrors(page);
    await page.goto(`${app.url}/settings`);
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).to.equal('/manifest.webmanifest');
    expect(await page.locator('link[rel="apple-touch-icon"]').getAttribute('href')).to.equal(
      '/icons/apple-touch-icon-180.png',
    );
    expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).to.equal(
      parsed.theme_color,
    );
    const scope = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      await navigator.serviceWorker.ready;
      return registration.scope;
    });
    expect(scope).to.equal(`${app.url}/`);
    expect(errors).to.deep.equal([]);
  });

  /** Signs in, grants notifications, opens Settings with subscribe stubbed to `subscription`. */
  async function openSettings(
    user: SignedInUser,
    subscription: FakeSubscription,
    viewport: Viewport = DESKTOP,
  ) {
    const context = await signedInContext(browser, app, user, viewport);
    await context.grantPermissions(['notifications'], { origin: app.url });
    await stubSubscribe(context, subscription);
    const page = await context.newPage();
    await page.goto(`${app.url}/settings`);
    return page;
  }

  it('"Enable alerts on this device" asks on the tap, subscribes with the VAPID key and lists the device', async () => {
    const user = await signIn(app, { name: 'Kavya Push' });
    const subscription = fake.subscribe(app.runtime.deps.vapid.publicKey);
    const page = await openSettings(user, subscription);
    const errors = pageErrors(page);
    const card = notifications(page);
    await card.getByRole('button', { name: ENABLE }).click();
    const row = card.getByRole('listitem').filter({ hasText: 'Alerts on a device' });
    await row.getByText('Chrome on Linux').waitFor();
    await card.getByRole('status').filter({ hasText: 'Alerts are on for this device' }).waitFor();
    // Listed as this device, so the button has gone.
    await row.getByText('This device').waitFor();
    expect(await card.getByRole('button', { name: ENABLE }).count()).to.equal(0);
    expect(
      await page.evaluate(() => (window as unknown as { subscribedWith: string }).subscribedWith),
    ).to.equal(app.runtime.deps.vapid.publicKey);
    // The worker the app registered on the tap controls the whole app.
    expect(
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/'))?.scope),
    ).to.equal(`${app.url}/`);

    const listed = (
      await apiClient(app.url).get<ApiNotificationEndpoint[]>('/api/notification-endpoints', user.token)
    ).body.data!;
    const device = listed.find((e) => e.type === 'webpush')!;
    expect(device).to.include({
      value: subscription.endpoint,
      label: 'Chrome on Linux',
      verification_status: 'verified',
    });

    // What the server stored reaches this browser: the fake push service decrypts it with the
    // browser's private key and checks the VAPID key it subscribed with.
    const [row0] = await app.runtime.deps.db
      .select()
      .from(notificationEndpoints)
      .where(eq(notificationEndpoints.id, device.id));
    const sender = createWebPushSender({
      vapid: app.runtime.deps.vapid,
      log: captureLog().log,
      allowPrivateEndpoints: true,
      ca: fake.ca,
    });
    const text = {
      kind: 'alert' as const,
      title: 'INFY stop loss hit',
      body: '₹1,234.50 crossed ₹1,240.00 · 10:41 IST',
      url: `${app.url}/holdings`,
      tag: 'rule-e2e',
      protective: true,
      symbol: 'INFY',
    };
    const [outcome] = await sender.send([
      {
        id: 'd1',
        executionId: 'e1',
        userId: user.id,
        attempts: 1,
        endpoint: { id: row0!.id, value: row0!.value, label: row0!.label, meta: row0!.meta },
        text,
      },
    ]);
    expect(outcome!.kind).to.equal('accepted');
    const [push] = fake.receivedBy(subscription);
    expect(JSON.parse(push!.payload!)).to.deep.equal({
      title: text.title,
      body: text.body,
      url: text.url,
      tag: text.tag,
    });
    expect(errors).to.deep.equal([]);
  });

  it('says how to allow notifications when the browser does not give permission', async () => {
    const user = await signIn(app);
    const context = await signedInContext(browser, app, user);
    const page = await context.newPage();
    await page.goto(`${app.url}/settings`);
    const card = notifications(page);
    await card.getByRole('button', { name: ENABLE }).click();
    await card
      .getByRole('alert')
      .filter({ hasText: 'Alerts were not enabled: the browser asked for permission and it was not given.' })
      .waitFor();
    const listed = (
      await apiClient(app.url).get<ApiNotificationEndpoint[]>('/api/notification-endpoints', user.token)
    ).body.data!;
    expect(listed.filter((e) => e.type === 'webpush')).to.have.length(0);
  });

  it('on an iPhone outside the Home Screen, says to add the app there first and offers no button', async () => {
    const user = await signIn(app);
    const context = await browser.newContext({
      ...PHONE_CONTEXT,
      userAgent: IPHONE_UA,
      storageState: {
        cookies: [],
        origins: [
          {
            origin: app.url,
            localStorage: [
              { name: 'auth_token', value: user.token },
              { name: 'refresh_token', value: user.refreshToken },
            ],
          },
        ],
      },
    });
    const page = await context.newPage();
    await page.goto(`${app.url}/settings`);
    const card = notifications(page);
    await card
      .getByText(
        'On iPhone, add Portfolio Guard to your Home Screen first (Share → Add to Home Screen), then open it from there to enable alerts.',
      )
      .waitFor();
    expect(await card.getByRole('button', { name: ENABLE }).count()).to.equal(0);
  });

  for (const [viewport, width] of [
    [DESKTOP, '1280'],
    [PHONE, '375'],
  ] as Array<[Viewport, string]>) {
    it(`lists the device in the Notifications card without a sideways scroll at ${width} px`, async () => {
      const user = await signIn(app, { name: 'Kavya Shot', email: `kavya.push.${width}@example.com` });
      const page = await openSettings(user, fake.subscribe(app.runtime.deps.vapid.publicKey), viewport);
      const errors = pageErrors(page);
      const card = notifications(page);
      await card.getByRole('button', { name: ENABLE }).click();
      await card.getByRole('listitem').filter({ hasText: 'Chrome on Linux' }).waitFor();
      await assertNoHorizontalScroll(page);
      await showUnderHeader(card);
      await docsScreenshot(page, `settings-push-${width}.png`);
      expect(errors).to.deep.equal([]);
    });
  }
});

const PHONE_CONTEXT = {
  viewport: PHONE,
  locale: 'en-IN',
  timezoneId: 'Asia/Kolkata',
  isMobile: true,
  hasTouch: true,
};
