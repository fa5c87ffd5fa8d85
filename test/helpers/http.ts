import http from 'node:http';

/** A small fetch wrapper for API tests: returns status, parsed body and headers. */
export interface ApiResponse<T = unknown> {
  status: number;
  body: { success: boolean; data?: T; error?: string; details?: string[] };
  headers: Headers;
}

export interface RequestOptions {
  token?: string;
  headers?: Record<string, string>;
  /** Sent as-is (string) instead of JSON. */
  raw?: string;
  /** Give up (the call throws a TimeoutError) when no answer has come within this. */
  timeoutMs?: number;
}

export async function request<T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  opts: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let payload: string | undefined = opts.raw;
  if (body !== undefined && payload === undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  // An API answer as it is: a redirect is the answer, not the page it leads to.
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: payload,
    redirect: 'manual',
    signal: opts.timeoutMs === undefined ? undefined : AbortSignal.timeout(opts.timeoutMs),
  });
  const text = await res.text();
  let parsed: ApiResponse<T>['body'];
  try {
    parsed = text ? JSON.parse(text) : { success: false };
  } catch {
    parsed = { success: false, error: `non-JSON response: ${text.slice(0, 200)}` };
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/**
 * Bound to one app: `api.get('/api/holdings', token)`. `baseUrl` may be a function, read at each
 * call, for a client made before its app has booted (a suite's opening).
 */
export function apiClient(baseUrl: string | (() => string)) {
  const url = typeof baseUrl === 'string' ? () => baseUrl : baseUrl;
  return {
    get: <T = unknown>(path: string, token?: string) => request<T>(url(), 'GET', path, undefined, { token }),
    post: <T = unknown>(path: string, body?: unknown, token?: string) =>
      request<T>(url(), 'POST', path, body ?? {}, { token }),
    put: <T = unknown>(path: string, body?: unknown, token?: string) =>
      request<T>(url(), 'PUT', path, body ?? {}, { token }),
    patch: <T = unknown>(path: string, body?: unknown, token?: string) =>
      request<T>(url(), 'PATCH', path, body ?? {}, { token }),
    delete: <T = unknown>(path: string, token?: string) =>
      request<T>(url(), 'DELETE', path, undefined, { token }),
  };
}

/** What {@link answerBeforeBody} saw: the answer, and how much of the body had been sent. */
export interface EarlyAnswer {
  status: number;
  body: { success: boolean; error?: string };
  /** Bytes of the body written before the answer came. */
  sent: number;
}

/**
 * Starts a request announcing a body of `total` bytes (Content-Length, or chunked when `total`
 * is undefined), sends only `first`, and resolves with the server's answer, which must come while
 * the rest is unsent: proof that the server decided without reading the body. Rejects when no
 * answer comes within `waitMs` (a server that waits for the whole body, as a parser must).
 */
export function answerBeforeBody(
  baseUrl: string,
  path: string,
  options: {
    first: Buffer;
    total?: number;
    token?: string;
    headers?: Record<string, string>;
    waitMs?: number;
  },
): Promise<EarlyAnswer> {
  const { first, total, token, waitMs = 5000 } = options;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (total !== undefined) headers['content-length'] = String(total);
  if (token) headers.authorization = `Bearer ${token}`;
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer to ${path} while ${first.length} bytes of the body were sent`));
    }, waitMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on('response', (res) => {
      clearTimeout(timer);
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        // The answer is in: the request is abandoned, the rest of its body never sent.
        req.destroy();
        resolve({
          status: res.statusCode ?? 0,
          body: JSON.parse(text) as EarlyAnswer['body'],
          sent: first.length,
        });
      });
    });
    req.flushHeaders();
    req.write(first);
  });
}
