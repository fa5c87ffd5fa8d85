/** Where a user may be sent after signing in. Pure: no DOM, unit-tested in test/client. */

/** The signed-in areas a `redirect` query parameter may point at (docs/pages.md, Login). */
export const REDIRECT_PREFIXES = ['/dashboard', '/holdings', '/history', '/settings'] as const;

/** Where sign-in lands when no acceptable redirect was given. */
export const DEFAULT_AFTER_LOGIN = '/dashboard';

/**
 * Returns `value` when it is a path inside one of the signed-in areas, else `/dashboard`.
 * The area must be followed by the end, `/`, `?` or `#`, so `/dashboard-evil` or
 * `/dashboard.example.com` are refused; backslashes and control characters are refused too.
 */
export function safeRedirect(value: string | null): string {
  if (!value) return DEFAULT_AFTER_LOGIN;
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return DEFAULT_AFTER_LOGIN;
  const allowed = REDIRECT_PREFIXES.some(
    (prefix) =>
      value.startsWith(prefix) &&
      (value.length === prefix.length || '/?#'.includes(value[prefix.length] ?? '')),
  );
  return allowed ? value : DEFAULT_AFTER_LOGIN;
}

/**
 * Where an expired session sends the tab from `pathname` + `search`: the login page, with a
 * redirect back when the page is a signed-in area; null when the tab is already on the login page
 * (several requests of one page fail together, and the first one's `?redirect=` must stay).
 */
export function loginAfterExpiry(pathname: string, search: string): string | null {
  if (pathname === '/login') return null;
  const here = pathname + search;
  return safeRedirect(here) === here ? `/login?redirect=${encodeURIComponent(here)}` : '/login';
}
