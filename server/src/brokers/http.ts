/**
 * One broker call over `fetch`, for every connector: a timeout of BROKER_TIMEOUT_MS, and the
 * failures every broker shares mapped to BrokerError (no answer or a refused connection →
 * `unavailable`; 429 → `rate_limited` with its Retry-After; 5xx → `unavailable`; a body that is
 * not JSON → `malformed`). What a 4xx means is the connector's to say: it gets the status and body.
 */
import { BrokerError } from './connector.ts';

/** The `fetch` connectors call: the global one, or a test's. */
export type FetchImpl = typeof fetch;

export interface BrokerAnswer {
  status: number;
  /** The parsed JSON body. */
  body: unknown;
}

/** Sends `init` to `url` and reads a JSON answer, throwing BrokerError for the shared failures. */
export async function brokerCall(
  fetchImpl: FetchImpl,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<BrokerAnswer> {
  let response: Response;
  let text: string;
  try {
    response = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    text = await response.text();
  } catch (err) {
    const what = err instanceof Error ? err.name : 'error';
    throw new BrokerError('unavailable', `${new URL(url).pathname}: no answer (${what})`);
  }
  if (response.status === 429) {
    const retry = Number(response.headers.get('retry-after'));
    throw new BrokerError('rate_limited', `${new URL(url).pathname}: 429`, retry > 0 ? retry : undefined);
  }
  if (response.status >= 500) {
    throw new BrokerError('unavailable', `${new URL(url).pathname}: ${response.status}`);
  }
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch (err) {
    if (err instanceof SyntaxError)
      throw new BrokerError('malformed', `${new URL(url).pathname}: ${response.status}, not JSON`);
    throw err;
  }
}
