/**
 * The one way the client talks to the server: base `/api`, JSON in and out (or a file download), bearer token from
 * localStorage, 10-second timeout, `{success, data | error}` envelope unwrapped.
 * A 401 triggers one token refresh (shared by concurrent calls and, through a Web Lock, by
 * tabs) and one retry; when that fails the tokens are cleared and the session-expired
 * handler runs (by default: go to /login).
 */
import { ApiError, TIMEOUT_MESSAGE, fallbackMessage } from './errors.ts';
import { clearTokens, getAccessToken, getRefreshToken, storeTokens } from './tokens.ts';

export { ApiError, errorMessage, isAbortError } from './errors.ts';

const API_BASE = '/api';
const TIMEOUT_MS = 10_000;

type QueryValue = string | number | boolean | null | undefined;

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, QueryValue>;
  /** Cancels the call; the promise then rejects with an AbortError (see `isAbortError`). */
  signal?: AbortSignal;
  /**
   * What happens when the session cannot be renewed after a 401:
   * `redirect` (default) clears the tokens and runs the session-expired handler;
   * `throw` clears the tokens and only throws (used by the session check itself).
   */
  onSessionExpired?: 'redirect' | 'throw';
  /** Skip the refresh-and-retry on 401 (calls that must not touch the session, e.g. logout). */
  noRefresh?: boolean;
  /** The answer is a file (an attachment), resolved as a `DownloadedFile` instead of an envelope. */
  file?: boolean;
}

/** A file the server answered with (`Content-Disposition: attachment`). */
export interface DownloadedFile {
  blob: Blob;
  /** The name the server gave it, or null. */
  fileName: string | null;
}

interface Envelope {
  success?: boolean;
  data?: unknown;
  error?: unknown;
  details?: unknown;
}

let sessionExpiredHandler: () => void = () => window.location.assign('/login');
let refreshInFlight: Promise<boolean> | null = null;

/** Replaces what happens after a failed refresh (the session provider routes to /login). */
export function setSessionExpiredHandler(handler: () => void): void {
  sessionExpiredHandler = handler;
}

/**
 * Calls `path` under /api and resolves the envelope's `data`.
 * Rejects with `ApiError {status, message}`: the server's `error` text, or a fallback sentence.
 */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const sentToken = getAccessToken();
  try {
    return await send<T>(path, options, sentToken);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401 || !sentToken || options.noRefresh) throw err;
    if (await refreshSession(sentToken)) {
      try {
        return await send<T>(path, options, getAccessToken());
      } catch (retryErr) {
        if (!(retryErr instanceof ApiError) || retryErr.status !== 401) throw retryErr;
      }
    }
    clearTokens();
    if (options.onSessionExpired !== 'throw') sessionExpiredHandler();
    throw err;
  }
}

/** Shorthands for the HTTP verbs. */
export const api = {
  get: <T>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: Omit<ApiRequestOptions, 'method'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
  /** GETs a file download (with the session's token, refreshed like any call). */
  download: (path: string, options?: Omit<ApiRequestOptions, 'method' | 'body' | 'file'>) =>
    apiRequest<DownloadedFile>(path, { ...options, method: 'GET', file: true }),
};

/**
 * Renews the access token with the stored refresh token (`POST /auth/refresh`) and stores
 * both new tokens. Concurrent callers in this tab share one request; across tabs a Web Lock
 * serialises refreshes, and a tab that finds a token newer than `staleToken` already stored
 * uses it instead of refreshing again. Resolves false when the session cannot be renewed.
 */
export function refreshSession(staleToken: string | null = getAccessToken()): Promise<boolean> {
  refreshInFlight ??= withRefreshLock(() => refreshUnlessRenewed(staleToken)).finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

function withRefreshLock(task: () => Promise<boolean>): Promise<boolean> {
  if (typeof navigator !== 'undefined' && 'locks' in navigator) {
    return navigator.locks.request('auth-refresh', task);
  }
  return task();
}

async function refreshUnlessRenewed(staleToken: string | null): Promise<boolean> {
  const current = getAccessToken();
  if (current && current !== staleToken) return true;
  const refreshToken = getRefreshToken();
  if (!refreshToken) return false;
  try {
    const data = await send<{ access_token?: string; refresh_token?: string }>(
      '/auth/refresh',
      { method: 'POST', body: { refresh_token: refreshToken } },
      null,
    );
    if (!data?.access_token) return false;
    storeTokens(data.access_token, data.refresh_token ?? refreshToken);
    return true;
  } catch (err) {
    console.warn('Could not renew the session', err);
    return false;
  }
}

async function send<T>(path: string, options: ApiRequestOptions, token: string | null): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  if (options.signal?.aborted) throw new DOMException('The request was cancelled', 'AbortError');
  const timeout = new AbortController();
  const timer = window.setTimeout(() => timeout.abort(), TIMEOUT_MS);
  const cancel = () => timeout.abort();
  options.signal?.addEventListener('abort', cancel, { once: true });
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: timeout.signal,
      cache: 'no-store',
    });
  } catch (err) {
    if (options.signal?.aborted) throw new DOMException('The request was cancelled', 'AbortError');
    if (timeout.signal.aborted) throw new ApiError(0, TIMEOUT_MESSAGE);
    throw new ApiError(0, fallbackMessage(0), { details: [String(err)] });
  } finally {
    window.clearTimeout(timer);
    options.signal?.removeEventListener('abort', cancel);
  }
  if (options.file && response.ok) return (await readFile(response)) as T;
  return unwrap<T>(response);
}

async function readFile(response: Response): Promise<DownloadedFile> {
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? null;
  return { blob: await response.blob(), fileName };
}

async function unwrap<T>(response: Response): Promise<T> {
  const envelope = await readEnvelope(response);
  if (response.ok && envelope?.success !== false) return envelope?.data as T;
  const message = typeof envelope?.error === 'string' && envelope.error ? envelope.error : undefined;
  const details = Array.isArray(envelope?.details) ? envelope.details.map(String) : [];
  const status = response.status;
  throw new ApiError(status, message ?? fallbackMessage(response.ok ? 400 : status), {
    details,
    fromServer: message !== undefined,
  });
}

async function readEnvelope(response: Response): Promise<Envelope | undefined> {
  const text = await response.text().catch((err: unknown) => {
    console.warn('Could not read the response body', err);
    return '';
  });
  if (!text) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Envelope) : undefined;
  } catch (err) {
    // A proxy error page or similar: fall back to the status text.
    console.warn('The server answered with something other than JSON', err);
    return undefined;
  }
}

function buildUrl(path: string, query: Record<string, QueryValue> | undefined): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}
