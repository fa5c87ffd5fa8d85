/**
 * client/public/sw.js, run in a stand-in of the worker's global scope (node:vm): a push becomes
 * the notification the server's JSON describes; a tap focuses an open tab of the app on the
 * alert's page, or opens one; a URL of another origin never opens.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createContext, runInContext } from 'node:vm';

const SOURCE = readFileSync(new URL('../../client/public/sw.js', import.meta.url), 'utf8');
const ORIGIN = 'https://app.example.test';

interface WindowClient {
  url: string;
  focused: boolean;
  navigatedTo: string | null;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient>;
}

/** Loads the worker into a fresh scope; returns its listeners and what it did. */
function loadWorker(openWindows: string[] = []) {
  const listeners = new Map<string, (event: unknown) => void>();
  const shown: { title: string; options: Record<string, unknown> }[] = [];
  const opened: string[] = [];
  const windows: WindowClient[] = openWindows.map((url) => {
    const client: WindowClient = {
      url,
      focused: false,
      navigatedTo: null,
      focus: async () => ((client.focused = true), client),
      navigate: async (to: string) => ((client.navigatedTo = to), client),
    };
    return client;
  });
  const self = {
    location: new URL(`${ORIGIN}/sw.js`),
    addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
    skipWaiting: () => Promise.resolve(),
    registration: {
      showNotification: async (title: string, options: Record<string, unknown>) =>
        void shown.push({ title, options }),
    },
    clients: {
      claim: () => Promise.resolve(),
      matchAll: async () => windows,
      openWindow: async (url: string) => void opened.push(url),
    },
  };
  runInContext(SOURCE, createContext({ self, URL }));
  /** Dispatches `type` and waits for what it handed to waitUntil. */
  const dispatch = async (type: string, event: Record<string, unknown>) => {
    let pending: Promise<unknown> = Promise.resolve();
    listeners.get(type)!({ ...event, waitUntil: (p: Promise<unknown>) => (pending = p) });
    await pending;
  };
  return { dispatch, shown, opened, windows };
}

const pushData = (json: unknown) => ({
  json: () => (typeof json === 'string' ? JSON.parse(json) : json),
  text: () => (typeof json === 'string' ? json : JSON.stringify(json)),
});

describe('client: the service worker', () => {
  it('shows a push as its notification: title, body, tag, the page to open, icon and badge', async () => {
    const worker = loadWorker();
    await worker.dispatch('push', {
      data: pushData({
        title: 'INFY stop loss hit',
        body: '₹1,234.50 crossed ₹1,240.00 · 10:41 IST',
        url: `${ORIGIN}/holdings/NSE/INFY`,
        tag: 'rule-1',
      }),
    });
    expect(worker.shown).to.have.length(1);
    const [{ title, options }] = worker.shown as [{ title: string; options: Record<string, unknown> }];
    expect(title).to.equal('INFY stop loss hit');
    expect(options).to.deep.include({
      body: '₹1,234.50 crossed ₹1,240.00 · 10:41 IST',
      tag: 'rule-1',
      icon: '/icons/icon-192.png',
      badge: '/icons/badge-96.png',
    });
    expect(options.data).to.deep.equal({ url: `${ORIGIN}/holdings/NSE/INFY` });
  });

  it('still shows something for a push without JSON', async () => {
    const worker = loadWorker();
    await worker.dispatch('push', { data: null });
    await worker.dispatch('push', {
      data: { json: () => JSON.parse('not json'), text: () => 'Check your alerts' },
    });
    expect(worker.shown.map((s) => [s.title, s.options.body])).to.deep.equal([
      ['Portfolio Guard alert', 'Open Portfolio Guard to see it.'],
      ['Portfolio Guard alert', 'Check your alerts'],
    ]);
  });

  it("a tap focuses the app's open tab on the alert's page", async () => {
    const worker = loadWorker(['https://elsewhere.example/', `${ORIGIN}/dashboard`]);
    let closed = false;
    const notification = { data: { url: `${ORIGIN}/holdings/NSE/INFY` }, close: () => (closed = true) };
    await worker.dispatch('notificationclick', { notification });
    expect(closed).to.equal(true);
    expect(worker.windows[1]).to.include({ focused: true, navigatedTo: `${ORIGIN}/holdings/NSE/INFY` });
    expect(worker.windows[0]!.focused).to.equal(false);
    expect(worker.opened).to.deep.equal([]);
  });

  it('a tap with no tab open opens one; a URL of another origin opens the app instead', async () => {
    const worker = loadWorker();
    await worker.dispatch('notificationclick', {
      notification: { data: { url: '/history' }, close: () => undefined },
    });
    await worker.dispatch('notificationclick', {
      notification: { data: { url: 'https://evil.example/phish' }, close: () => undefined },
    });
    expect(worker.opened).to.deep.equal([`${ORIGIN}/history`, `${ORIGIN}/`]);
  });
});
