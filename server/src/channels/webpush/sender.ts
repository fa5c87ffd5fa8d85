/**
 * The Web Push sender (docs/notifications.md#web-push): each delivery's notice as JSON
 * `{title, body, url, tag}` (at most 3 KB), encrypted for the subscription (RFC 8291 aes128gcm)
 * and signed with the app's VAPID key (RFC 8292) by the `web-push` library, POSTed to the push
 * service (RFC 8030) with a TTL of 4 hours, `Urgency: high` for a stop loss, and a `Topic` per
 * tag so a newer notice replaces an unread older one. `web-push` builds each request (its
 * headers and encrypted body); transport.ts sends it (HTTP/2 where the push service offers it,
 * HTTP/1.1 otherwise). The push service's answer becomes the outcome; a batch goes out a few
 * requests at a time.
 */
import { createHash } from 'node:crypto';
import { createSecureContext, rootCertificates } from 'node:tls';
import type { Logger } from 'pino';
import webpush, { type PushSubscription } from 'web-push';
import type {
  ChannelSender,
  NoticeText,
  OutgoingDelivery,
  SendOutcome,
} from '../../notifications/channel.ts';
import { checkPushEndpoint, guardedLookupOf, PrivateAddressError, type Resolve } from './address-guard.ts';
import { createPushTransport, type PushAnswer } from './transport.ts';
import type { VapidKeys } from './vapid.ts';

/** A stop alert is worthless tomorrow: a phone offline longer than this never gets it. */
export const PUSH_TTL_SECONDS = 4 * 3600;
/** The most JSON a notice becomes (a push service takes 4096 bytes of ciphertext; Firefox's FCM bridge 2744). */
export const MAX_PAYLOAD_BYTES = 3 * 1024;
/** How long one push service may leave a socket idle before the request counts as failed. */
const REQUEST_TIMEOUT_MS = 10_000;
/** A 429 without a Retry-After waits this long. */
const DEFAULT_THROTTLE_MS = 60_000;
/** A VAPID JWT's life (at most 24 h), and how much of it must be left for it to be used again. */
const VAPID_JWT_SECONDS = 12 * 3600;
const VAPID_RENEW_BEFORE_SECONDS = 6 * 3600;
/** Push service origins whose JWTs are kept (real ones are a handful; the bound keeps a flood of odd hosts cheap). */
const MAX_CACHED_AUDIENCES = 1000;

export interface WebPushSenderDeps {
  vapid: VapidKeys;
  log: Logger;
  /** WEBPUSH_ALLOW_PRIVATE_ENDPOINTS: let a local push service in (tests only). */
  allowPrivateEndpoints: boolean;
  /** A CA to trust besides the usual ones (tests' fake push service); TLS is never turned off. */
  ca?: string | undefined;
  /** Requests in flight at once (default 16). */
  concurrency?: number | undefined;
  /** How long one request may wait for its connection or its answer (default 10 s). */
  requestTimeoutMs?: number | undefined;
  /** Tests resolve names their own way (before the send and at connect time alike). */
  resolve?: Resolve | undefined;
}

/** What the service worker reads from a push (client/public/sw.js). */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
}

const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');

/** The notice as the push's JSON, its body (then its title) shortened with "…" to fit MAX_PAYLOAD_BYTES. */
export function pushPayload(text: Pick<NoticeText, 'title' | 'body' | 'url' | 'tag'>): string {
  const payload: PushPayload = { title: text.title, body: text.body, url: text.url, tag: text.tag };
  let json = JSON.stringify(payload);
  for (const field of ['body', 'title'] as const) {
    while (byteLength(json) > MAX_PAYLOAD_BYTES && payload[field].length > 1) {
      const chars = Array.from(payload[field].replace(/…$/, ''));
      const over = byteLength(json) - MAX_PAYLOAD_BYTES;
      payload[field] =
        `${chars.slice(0, Math.max(0, chars.length - Math.max(1, Math.ceil(over / 4)))).join('')}…`;
      json = JSON.stringify(payload);
    }
  }
  return json;
}

/** A Topic is at most 32 characters of base64url (RFC 8030): a tag of any length becomes one by its hash. */
export function pushTopic(tag: string): string {
  return createHash('sha256').update(tag).digest('base64url').slice(0, 32);
}

/** Retry-After in milliseconds (seconds or an HTTP date), or undefined. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function subscriptionOf(delivery: OutgoingDelivery): PushSubscription | null {
  const keys = (delivery.endpoint.meta as { keys?: { p256dh?: unknown; auth?: unknown } } | null)?.keys;
  if (typeof keys?.p256dh !== 'string' || typeof keys.auth !== 'string') return null;
  return { endpoint: delivery.endpoint.value, keys: { p256dh: keys.p256dh, auth: keys.auth } };
}

/**
 * The `Authorization: vapid t=…, k=…` header for a push service, signed once per origin and
 * reused for hours: `web-push` would sign one per request (about 1 ms of CPU each, a minute for a
 * crash day's 50,000 pushes), where the encryption itself costs a fifth of that.
 */
export function vapidAuthorizations(
  vapid: VapidKeys,
  now: () => number = Date.now,
): (endpoint: string) => string {
  const cache = new Map<string, { authorization: string; expiresAt: number }>();
  return (endpoint) => {
    const audience = new URL(endpoint).origin;
    const seconds = Math.floor(now() / 1000);
    const cached = cache.get(audience);
    if (cached && cached.expiresAt - seconds > VAPID_RENEW_BEFORE_SECONDS) return cached.authorization;
    const expiresAt = seconds + VAPID_JWT_SECONDS;
    const { Authorization } = webpush.getVapidHeaders(
      audience,
      vapid.subject,
      vapid.publicKey,
      vapid.privateKey,
      'aes128gcm',
      expiresAt,
    );
    if (cache.size >= MAX_CACHED_AUDIENCES) cache.clear();
    cache.set(audience, { authorization: Authorization, expiresAt });
    return Authorization;
  };
}

/** Runs `work` over `items`, at most `limit` at a time, keeping the order of the results. */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

export function createWebPushSender(deps: WebPushSenderDeps): ChannelSender {
  const { vapid, log, allowPrivateEndpoints } = deps;
  const concurrency = deps.concurrency ?? 16;
  const authorization = vapidAuthorizations(vapid);
  const transport = createPushTransport({
    connections: concurrency,
    timeoutMs: deps.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    // The extra CA as one secure context made once, not a context built from ~140 root
    // certificates for every connection.
    secureContext: deps.ca ? createSecureContext({ ca: [...rootCertificates, deps.ca] }) : undefined,
    // Connections resolve through the guard: the addresses checked are those connected to.
    lookup: allowPrivateEndpoints ? undefined : guardedLookupOf(deps.resolve),
  });

  /** The outcome of a push service's refusal (any answer but 2xx). */
  const refused = (delivery: OutgoingDelivery, err: PushAnswer): SendOutcome => {
    const { statusCode, headers } = err;
    const reason = `push service answered ${statusCode}${err.body ? `: ${err.body.slice(0, 200)}` : ''}`;
    const context = { deliveryId: delivery.id, endpointId: delivery.endpoint.id, status: statusCode };
    if (statusCode === 404 || statusCode === 410) return { kind: 'gone', reason };
    if (statusCode === 429) {
      return {
        kind: 'retry',
        reason,
        afterMs: retryAfterMs(headers['retry-after']) ?? DEFAULT_THROTTLE_MS,
        throttled: true,
      };
    }
    if (statusCode >= 500) return { kind: 'retry', reason, afterMs: retryAfterMs(headers['retry-after']) };
    // 400 and 413 are our bug (a header, the size); 401 and 403 a VAPID key the subscription was not made with.
    log.error({ ...context, body: err.body.slice(0, 500) }, 'push service refused a notification');
    return { kind: 'failed', reason };
  };

  const sendOne = async (delivery: OutgoingDelivery): Promise<SendOutcome> => {
    const subscription = subscriptionOf(delivery);
    if (!subscription) return { kind: 'failed', reason: 'the endpoint has no push subscription keys' };
    const check = await checkPushEndpoint(subscription.endpoint, {
      allowPrivate: allowPrivateEndpoints,
      resolve: deps.resolve,
    });
    if (!check.ok) {
      return check.reason === 'private'
        ? { kind: 'gone', reason: `the endpoint is not a public address: ${check.detail}` }
        : { kind: 'retry', reason: `the endpoint's host was not found: ${check.detail}` };
    }
    const { text } = delivery;
    try {
      const details = webpush.generateRequestDetails(subscription, pushPayload(text), {
        // Signed here once per push service (vapidAuthorizations): no vapidDetails, so web-push
        // signs nothing itself (the app never sets its global ones).
        headers: { Authorization: authorization(subscription.endpoint) },
        TTL: PUSH_TTL_SECONDS,
        urgency: text.protective ? 'high' : 'normal',
        topic: pushTopic(text.tag),
        contentEncoding: 'aes128gcm',
      });
      const answer = await transport.post(
        details.endpoint,
        stringHeaders(details.headers),
        details.body ?? Buffer.alloc(0),
      );
      if (answer.statusCode < 200 || answer.statusCode > 299) return refused(delivery, answer);
      const location = answer.headers['location'];
      return { kind: 'accepted', providerMessageId: typeof location === 'string' ? location : undefined };
    } catch (err) {
      const guard = [err, causeOf(err)].find((e) => e instanceof PrivateAddressError);
      if (guard) return { kind: 'gone', reason: guard.message };
      return { kind: 'retry', reason: `push service unreachable: ${describeFailure(err)}` };
    }
  };

  return {
    channel: 'webpush',
    maxBatch: 100,
    send: (deliveries) => mapLimited(deliveries, concurrency, sendOne),
  };
}

/** web-push's headers (some numbers) as the strings undici sends. */
function stringHeaders(headers: Record<string, string | number>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)]));
}

/** undici (HTTP/1.1) wraps a connection's failure: the error it carries, if any. */
function causeOf(err: unknown): unknown {
  return err instanceof Error ? err.cause : undefined;
}

/** "connect ECONNREFUSED 127.0.0.1:9", "self-signed certificate", "Headers Timeout Error". */
function describeFailure(err: unknown): string {
  const cause = causeOf(err);
  const messages = [err, cause].flatMap((e) => (e instanceof Error ? [e.message] : []));
  return [...new Set(messages)].join(': ') || String(err);
}
