/**
 * The `fetch` the Yahoo provider hands to yahoo-finance2. The library builds Yahoo's URLs
 * itself (finance.yahoo.com for the session cookie, query1 for the crumb, query2 for quotes, the
 * guce/consent hosts in the EU); this wrapper
 * - sends every Yahoo host to `YAHOO_BASE_URL` when one is set (the local fake in tests) and then
 *   refuses any other host, so a test can never reach the internet;
 * - adds a per-request timeout;
 * - judges each answer before the library does, because the library's errors drop the status
 *   and the Retry-After header: a 429 or 5xx becomes a retryable QuoteProviderError carrying
 *   Retry-After, a 401/403 from the API hosts ends the session (cookie and crumb are fetched
 *   again) and is retryable, any other failed API answer is a non-retryable error.
 */
import { parseRetryAfter } from './http.ts';
import { QuoteProviderError } from './types.ts';

/** How the wrapper is set up. */
export interface YahooFetchOptions {
  /** YAHOO_BASE_URL: every Yahoo host goes there instead; other hosts are refused. */
  baseUrl?: string;
  /** The fetch that really sends (default: the global one). */
  fetch?: typeof fetch;
  /** Per request. */
  timeoutMs: number;
  /** Yahoo refused the session (401/403): forget cookie and crumb before the error is thrown. */
  onSessionRefused: () => Promise<void>;
}

const isYahooHost = (host: string) => host === 'yahoo.com' || host.endsWith('.yahoo.com');
/** Hosts of the JSON API (crumb, quotes), as opposed to the web pages that set cookies. */
const isApiHost = (host: string) => /^query\d\.finance\.yahoo\.com$/.test(host);

function urlOf(input: string | URL | Request): URL {
  if (input instanceof Request) return new URL(input.url);
  return new URL(input);
}

/** A fetch for yahoo-finance2's `fetch` option (see the module comment). */
export function createYahooFetch(options: YahooFetchOptions): typeof fetch {
  const send = options.fetch ?? globalThis.fetch;
  const base = options.baseUrl?.replace(/\/+$/, '');

  function target(url: URL): string {
    if (base === undefined) return url.href;
    if (!isYahooHost(url.hostname)) {
      throw new QuoteProviderError(`refusing ${url.hostname}: YAHOO_BASE_URL allows Yahoo hosts only`, {
        retryable: false,
      });
    }
    return `${base}${url.pathname}${url.search}`;
  }

  async function yahooFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const url = urlOf(input);
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const request = input instanceof Request ? new Request(target(url), input) : target(url);
    let response: Response;
    try {
      response = await send(request, { ...init, signal });
    } catch (cause) {
      throw new QuoteProviderError(`request to ${url.hostname} failed`, { retryable: true, cause });
    }
    const { status } = response;
    if (status === 429 || status >= 500) {
      await response.body?.cancel();
      throw new QuoteProviderError(`${url.hostname} answered ${status}`, {
        status,
        retryable: true,
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
      });
    }
    if (!response.ok && isApiHost(url.hostname)) {
      await response.body?.cancel();
      const refused = status === 401 || status === 403;
      if (refused) await options.onSessionRefused();
      throw new QuoteProviderError(
        refused ? `yahoo refused the session (${status})` : `${url.hostname} answered ${status}`,
        { status, retryable: refused },
      );
    }
    return response;
  }
  return yahooFetch as typeof fetch;
}
