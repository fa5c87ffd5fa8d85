/**
 * The stored sign-in tokens (localStorage keys `auth_token` and `refresh_token`).
 * localStorage is shared by every tab of the origin, so a token written by one tab is the
 * token the next request of any tab sends; `onTokensChangedElsewhere` tells a tab about it.
 */

export const ACCESS_TOKEN_KEY = 'auth_token';
export const REFRESH_TOKEN_KEY = 'refresh_token';

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch (err) {
    // Storage can be blocked (privacy mode, disabled cookies): behave as signed out.
    console.warn('localStorage is not available', err);
    return null;
  }
}

/** The stored access token, or null when signed out. */
export function getAccessToken(): string | null {
  return read(ACCESS_TOKEN_KEY);
}

/** The stored refresh token, or null. */
export function getRefreshToken(): string | null {
  return read(REFRESH_TOKEN_KEY);
}

/** Stores both tokens after sign-in or a refresh. */
export function storeTokens(accessToken: string, refreshToken: string | null): void {
  window.localStorage.setItem(ACCESS_TOKEN_KEY, accessToken);
  if (refreshToken) window.localStorage.setItem(REFRESH_TOKEN_KEY, refreshToken);
  else window.localStorage.removeItem(REFRESH_TOKEN_KEY);
}

/** Forgets both tokens (sign-out, failed refresh). Other tabs see this as a sign-out. */
export function clearTokens(): void {
  try {
    window.localStorage.removeItem(ACCESS_TOKEN_KEY);
    window.localStorage.removeItem(REFRESH_TOKEN_KEY);
  } catch (err) {
    console.warn('Could not clear stored tokens', err);
  }
}

/**
 * Calls `listener` when another tab stores or clears the access token, with the new value.
 * (The browser's `storage` event never fires in the tab that made the change.)
 * Returns the unsubscribe function.
 */
export function onTokensChangedElsewhere(listener: (accessToken: string | null) => void): () => void {
  const handle = (event: StorageEvent) => {
    if (event.storageArea !== window.localStorage) return;
    // key === null means localStorage.clear() in the other tab.
    if (event.key === ACCESS_TOKEN_KEY || event.key === null) listener(getAccessToken());
  };
  window.addEventListener('storage', handle);
  return () => window.removeEventListener('storage', handle);
}
