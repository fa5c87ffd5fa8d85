/**
 * Browser-test steps for the session flows (docs/auth.md#in-the-browser): the stored tokens of a page,
 * and a gate that holds chosen API calls until the test lets them through, so the busy
 * texts shown meanwhile can be checked.
 */
import type { BrowserContext, Page, Request, Route } from 'playwright-core';

export interface StoredTokens {
  access: string | null;
  refresh: string | null;
}

/** The tokens in the page's localStorage (keys `auth_token`, `refresh_token`). */
export function storedTokens(page: Page): Promise<StoredTokens> {
  return page.evaluate(() => ({
    access: localStorage.getItem('auth_token'),
    refresh: localStorage.getItem('refresh_token'),
  }));
}

/** Puts tokens in the page's localStorage, as a sign-in in an earlier visit would have. */
export async function storeTokens(page: Page, access: string, refresh: string): Promise<void> {
  await page.evaluate(
    ([a, r]) => {
      localStorage.setItem('auth_token', a!);
      localStorage.setItem('refresh_token', r!);
    },
    [access, refresh],
  );
}

export interface HeldCalls {
  /** Resolves once the page has sent a call the gate holds. */
  arrived: Promise<Request>;
  /** Lets every held call (and every later one) through to the real server. */
  release(): Promise<void>;
}

/** Holds the page's calls to `url` (a glob) until `release()`; the server still answers them. */
export async function holdCalls(page: Page, url: string): Promise<HeldCalls> {
  let open: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (open = resolve));
  let arrive: (request: Request) => void = () => undefined;
  const arrived = new Promise<Request>((resolve) => (arrive = resolve));
  const held = new Set<Promise<void>>();
  const handler = (route: Route) => {
    arrive(route.request());
    const passing = released.then(() => route.continue());
    held.add(passing);
    return passing;
  };
  await page.route(url, handler);
  return {
    arrived,
    async release() {
      open();
      // Unrouting first would hand the held calls on, and their continue() would then throw.
      await Promise.all(held);
      await page.unroute(url, handler);
    },
  };
}

/** Counts the requests of a page or of every page of a context to `method` `pathname`. */
export function countCalls(
  source: Page | BrowserContext,
  method: string,
  pathname: string,
): { readonly count: number } {
  const counter = { count: 0 };
  const listener = (request: Request) => {
    if (request.method() === method && new URL(request.url()).pathname === pathname) counter.count++;
  };
  (source as Page).on('request', listener);
  return counter;
}
