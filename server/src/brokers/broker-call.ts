/**
 * What every broker connector does around one HTTP call (docs/holdings.md#connect-a-broker): the
 * timeout, a refused connection or a silent broker as `unavailable`, the answer's JSON, a
 * Retry-After in seconds, an answer checked against its documented shape (`malformed` naming the
 * missing fields, never their values), and the next instant the IST clock reads a given time
 * (when a broker's token dies). The broker's own error codes are read in its folder.
 */
import type { z } from 'zod';
import { BrokerError } from './connector.ts';

/** What a connector factory takes besides its app's keys. */
export interface ConnectorOptions {
  /** BROKER_TIMEOUT_MS: a call not answered in this long fails as `unavailable`. */
  timeoutMs: number;
  now: () => Date;
  /** The fetch to call (tests may pass their own; the global one otherwise). */
  fetch?: typeof fetch;
}

/** A broker's answer: the status, its headers and the body as JSON (undefined when not JSON). */
export interface BrokerAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** One call to a broker; throws `unavailable` when no answer comes in time or the connection fails. */
export async function callBroker(
  what: string,
  url: string,
  init: RequestInit,
  options: ConnectorOptions,
): Promise<BrokerAnswer> {
  let res: Response;
  let text: string;
  try {
    res = await (options.fetch ?? fetch)(url, { ...init, signal: AbortSignal.timeout(options.timeoutMs) });
    text = await res.text();
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
    throw new BrokerError(
      'unavailable',
      timedOut ? `${what}: no answer within ${options.timeoutMs} ms` : `${what}: no connection (${cause})`,
    );
  }
  let body: unknown;
  try {
    body = text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    body = undefined; // not JSON: the caller decides by the status (a 502 page, or a malformed 200)
  }
  return { status: res.status, headers: res.headers, body };
}

/** The Retry-After header in seconds, when the broker sent one as a number of seconds. */
export function retryAfterOf(headers: Headers): number | undefined {
  const raw = headers.get('retry-after');
  if (raw === null || !/^\d+$/.test(raw.trim())) return undefined;
  return Number(raw.trim());
}

/** The kind a status means whatever the body says: 429 `rate_limited`, 5xx `unavailable`. */
export function statusError(what: string, answer: BrokerAnswer): BrokerError | undefined {
  if (answer.status === 429) {
    return new BrokerError('rate_limited', `${what}: HTTP 429`, retryAfterOf(answer.headers));
  }
  if (answer.status >= 500) return new BrokerError('unavailable', `${what}: HTTP ${answer.status}`);
  return undefined;
}

/** The answer in its documented shape, or `malformed` naming what is missing (paths, no values). */
export function readAnswer<S extends z.ZodType>(what: string, schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`);
  throw new BrokerError('malformed', `${what}: not the documented answer (${problems.join('; ')})`);
}

const IST_OFFSET_MS = 330 * 60_000;
const DAY_MS = 86_400_000;

/** The first instant after `now` at which the IST clock reads `hour:minute` (a token's death). */
export function nextIstTime(now: Date, hour: number, minute = 0): Date {
  const istNow = now.getTime() + IST_OFFSET_MS;
  const todayAt = Math.floor(istNow / DAY_MS) * DAY_MS + (hour * 60 + minute) * 60_000;
  const at = todayAt > istNow ? todayAt : todayAt + DAY_MS;
  return new Date(at - IST_OFFSET_MS);
}
