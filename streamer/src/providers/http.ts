/** HTTP plumbing shared by web-API providers: failures become typed QuoteProviderErrors. */
import { QuoteProviderError } from './types.ts';

/** HTTP `Retry-After` (delay-seconds or an HTTP date) in milliseconds, or undefined. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/**
 * fetch with a timeout. A network failure or timeout throws a retryable QuoteProviderError; a 429
 * or 5xx answer throws a retryable one carrying the status and Retry-After; any other answer is
 * returned for the caller to judge.
 */
export async function fetchForQuotes(
  fetchImpl: typeof fetch,
  url: string,
  init: RequestInit & { timeoutMs: number },
): Promise<Response> {
  const { timeoutMs, ...rest } = init;
  let response: Response;
  try {
    response = await fetchImpl(url, { ...rest, signal: AbortSignal.timeout(timeoutMs) });
  } catch (cause) {
    throw new QuoteProviderError(`request to ${new URL(url).host} failed`, { retryable: true, cause });
  }
  if (response.status === 429 || response.status >= 500) {
    await response.body?.cancel();
    throw new QuoteProviderError(`${new URL(url).host} answered ${response.status}`, {
      status: response.status,
      retryable: true,
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
    });
  }
  return response;
}
