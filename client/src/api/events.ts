import { getAccessToken } from './tokens.ts';

/**
 * Records a page view (`POST /api/events {name:'page_view', path, referrer}`), signed in or
 * out. Fire and forget: never throws, never waits, never triggers a token refresh.
 * Only the path is sent, never the query string (it can hold a verification token).
 */
export function trackPageView(path: string, referrer: string | undefined): void {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const token = getAccessToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const body = JSON.stringify({
    name: 'page_view',
    path: path.slice(0, 512),
    ...(referrer ? { referrer: referrer.slice(0, 1024) } : {}),
  });
  try {
    fetch('/api/events', { method: 'POST', headers, body, keepalive: true }).catch((err: unknown) => {
      console.debug('Page view not recorded', err);
    });
  } catch (err) {
    console.debug('Page view not recorded', err);
  }
}
