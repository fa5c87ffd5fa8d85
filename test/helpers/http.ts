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
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body: payload });
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
