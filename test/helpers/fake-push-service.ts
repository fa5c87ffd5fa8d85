/**
 * A local push service that answers as a real one does (RFC 8030 over TLS), for the Web Push
 * sender's tests. It plays the browser too: `subscribe()` makes a subscription as a browser would
 * (an ECDH P-256 key pair and a 16-byte auth secret) and keeps its private key, so the fake
 * **decrypts** every aes128gcm payload (RFC 8291) and a test fails when the encryption is wrong.
 * What it checks and answers, after the research notes on push services (autopush, RFC 8030/8292):
 * - TLS on 127.0.0.1 with a self-signed certificate made at start (openssl); the sender trusts it by `ca`.
 *   HTTP/2 when the client offers it (ALPN), HTTP/1.1 otherwise, as FCM, autopush and Apple's
 *   push service answer; `http1Only` for a service that offers only HTTP/1.1. `goAway()` sends
 *   every HTTP/2 session a GOAWAY, as a push service going down for a restart does.
 * - `TTL` required, else 400 (autopush errno 111); `Content-Encoding: aes128gcm` required, else
 *   400 (errno 110); a body over 4096 bytes is 413 (errno 104).
 * - `Authorization: vapid t=<jwt>, k=<key>`: missing or malformed 401 (errno 109); an ES256
 *   signature that `k` does not verify, `aud` other than this origin, `exp` past or more than 24 h
 *   ahead, no `sub`, or a `k` other than the key the subscription was made with: 403 (errno 109).
 * - Accepted: 201 Created, an empty body and `Location: <origin>/m/<id>`.
 * - Scripted answers for a subscription: 404 and 410 (autopush's JSON, errno 102 and 106), 429
 *   with `Retry-After`, 413, 500, 503 (errno 201), any of them (201 too) after a delay; it counts
 *   the most requests it held unanswered at once.
 * Every request is recorded with its headers and the decrypted payload.
 */
import { execFileSync } from 'node:child_process';
import { createECDH, createPublicKey, randomBytes, randomUUID, verify } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createSecureServer,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type ServerHttp2Session,
} from 'node:http2';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { withLazyPayload } from './push-decrypt.ts';

/** The most a push service must take (RFC 8030). */
const MAX_BODY = 4096;

/** A self-signed certificate for localhost and 127.0.0.1, made with openssl for this run. */
function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'fake-push-tls-'));
  try {
    const keyFile = path.join(dir, 'key.pem');
    const certFile = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A subscription as `PushSubscription.toJSON()` gives it, with the private key only a browser has. */
export interface FakeSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** The VAPID public key it was made with (applicationServerKey), when one was given. */
  applicationServerKey: string | undefined;
  privateKey: Buffer;
}

/** What the fake received for a subscription. */
export interface ReceivedPush {
  subscriptionId: string;
  headers: {
    ttl?: string;
    urgency?: string;
    topic?: string;
    contentEncoding?: string;
    authorization?: string;
  };
  /** The VAPID JWT's claims, when it had a readable one. */
  claims: { aud?: unknown; exp?: unknown; sub?: unknown } | null;
  bodyBytes: number;
  /** '2.0' or '1.1'. */
  httpVersion: string;
  /**
   * The decrypted payload (UTF-8), or null when it could not be decrypted (`decryptError` says
   * why). Decrypted when first read, as the browser does after the push service has answered: a
   * push service never decrypts (RFC 8291), so the answer does not wait for it.
   */
  readonly payload: string | null;
  readonly decryptError: string | null;
  status: number;
  location: string | null;
  /** When the request had arrived whole (epoch ms): B9 and B10 time the pushes by it. */
  at: number;
}

export interface ScriptedPushAnswer {
  /** The answer; 201 answers as usual, only later (with `delayMs`). */
  status: 201 | 400 | 404 | 410 | 413 | 429 | 500 | 503;
  /** Answer this long after the request arrived (to see how many requests come at once). */
  delayMs?: number;
  /** `Retry-After` (seconds, or an HTTP date) on a 429 or 503. */
  retryAfter?: string;
  /** Answer this way this many times, then as usual (default: every time). */
  times?: number;
}

const ERRORS: Record<number, { errno: number; error: string; message: string }> = {
  400: { errno: 111, error: 'Bad Request', message: 'Missing TTL header' },
  401: {
    errno: 109,
    error: 'Unauthorized',
    message: 'Request did not validate missing authorization header',
  },
  403: { errno: 109, error: 'Forbidden', message: 'Request did not validate invalid VAPID credentials' },
  404: { errno: 102, error: 'Not Found', message: 'Request did not validate invalid token' },
  410: { errno: 106, error: 'Gone', message: 'Push subscription is no longer available' },
  413: { errno: 104, error: 'Payload Too Large', message: 'Data payload must be smaller than 4096 bytes' },
  429: { errno: 999, error: 'Too Many Requests', message: 'Too many requests' },
  500: { errno: 999, error: 'Internal Server Error', message: 'An unexpected server error occurred' },
  503: { errno: 201, error: 'Service Unavailable', message: 'Please retry later' },
};

export interface FakePushService {
  origin: string;
  /** The certificate to trust (PEM). */
  ca: string;
  /** A new subscription, as a browser makes it with `applicationServerKey`. */
  subscribe(applicationServerKey?: string): FakeSubscription;
  /** Answers `status` to pushes for this subscription (every time, or `times` times). */
  script(subscription: Pick<FakeSubscription, 'id'>, answer: ScriptedPushAnswer): void;
  /** Every push received, oldest first. */
  readonly received: readonly ReceivedPush[];
  receivedBy(subscription: Pick<FakeSubscription, 'id'>): ReceivedPush[];
  /** TLS connections accepted so far. */
  readonly connections: number;
  /** Sends every HTTP/2 session a GOAWAY (their streams in flight finish) and waits for them to close. */
  goAway(): Promise<void>;
  /** The most requests it held unanswered at one time (since `resetMaxInFlight`). */
  readonly maxInFlight: number;
  resetMaxInFlight(): void;
  close(): Promise<void>;
}

type Response = Http2ServerResponse | ServerResponse;

function fail(res: Response, status: number, message?: string, headers = {}) {
  const { errno, error, message: standard } = ERRORS[status] ?? ERRORS[500]!;
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ code: status, errno, error, message: message ?? standard }));
}

/** The VAPID header's claims when its ES256 signature verifies with `k`; else the refusal. */
/**
 * JWT and key pairs whose signature verified. A sender reuses one JWT for hours (RFC 8292 lets it live up to a day),
 * and verifying the same bytes again gives the same answer: only the claims are checked on every
 * request (the clock moves). Bounded, as a crash day's thousands of pushes carry one token.
 */
const verifiedTokens = new Set<string>();
function signatureVerifies(
  jwt: string,
  k: string,
  raw: Buffer,
  header: string,
  payload: string,
  signature: string,
): boolean {
  if (verifiedTokens.has(`${jwt} ${k}`)) return true;
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (signed) {
    if (verifiedTokens.size >= 1000) verifiedTokens.clear();
    verifiedTokens.add(`${jwt} ${k}`);
  }
  return signed;
}

function checkVapid(
  authorization: string | undefined,
  origin: string,
  expectedKey: string | undefined,
):
  | { ok: true; claims: Record<string, unknown> }
  | { ok: false; status: 401 | 403; message: string; claims: Record<string, unknown> | null } {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+),\s*k=([\w-]+)$/.exec(authorization ?? '');
  if (!match) return { ok: false, status: 401, message: ERRORS[401]!.message, claims: null };
  const [, jwt, k] = match as unknown as [string, string, string];
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  let claims: Record<string, unknown>;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: string };
    if (head.alg !== 'ES256') return { ok: false, status: 403, message: 'JWT alg must be ES256', claims };
  } catch {
    return { ok: false, status: 401, message: ERRORS[401]!.message, claims: null };
  }
  const raw = Buffer.from(k, 'base64url');
  const refuse = (message: string) => ({ ok: false as const, status: 403 as const, message, claims });
  if (raw.length !== 65 || raw[0] !== 0x04) return refuse('k is not an uncompressed P-256 key');
  if (!signatureVerifies(jwt, k, raw, header, payload, signature))
    return refuse('JWT signature does not verify with k');
  if (claims.aud !== origin) return refuse(`aud must be ${origin}`);
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.exp !== 'number' || claims.exp <= now) return refuse('JWT has expired');
  if (claims.exp > now + 24 * 3600) return refuse('exp must be at most 24 hours ahead');
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub))
    return refuse('sub must be a mailto: or https: URL');
  if (expectedKey && k !== expectedKey) return refuse('k is not the key the subscription was made with');
  return { ok: true, claims };
}

export async function startFakePushService(options: { http1Only?: boolean } = {}): Promise<FakePushService> {
  const tls = selfSignedCertificate();
  const subscriptions = new Map<string, FakeSubscription & { publicKey: Buffer; authBytes: Buffer }>();
  const scripts = new Map<string, ScriptedPushAnswer & { left: number }>();
  const received: ReceivedPush[] = [];
  let origin = '';
  let inFlight = 0;
  let maxInFlight = 0;
  let connections = 0;

  const sessions = new Set<ServerHttp2Session>();
  const handle = (req: Http2ServerRequest | IncomingMessage, res: Response) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => (inFlight -= 1));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1];
      const subscription = id ? subscriptions.get(id) : undefined;
      if (req.method !== 'POST' || !subscription) return fail(res, 404);
      const body = Buffer.concat(chunks);
      const header = (name: string) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const vapid = checkVapid(header('authorization'), origin, subscription.applicationServerKey);
      const record: ReceivedPush = withLazyPayload(body, subscription, {
        subscriptionId: subscription.id,
        headers: {
          ttl: header('ttl'),
          urgency: header('urgency'),
          topic: header('topic'),
          contentEncoding: header('content-encoding'),
          authorization: header('authorization'),
        },
        claims: vapid.claims,
        bodyBytes: body.length,
        httpVersion: req.httpVersion,
        status: 0,
        location: null,
        at: Date.now(),
      });
      received.push(record);
      const answer = (status: number, message?: string, headers?: Record<string, string>) => {
        record.status = status;
        fail(res, status, message, headers);
      };
      if (record.headers.ttl === undefined || !/^\d+$/.test(record.headers.ttl)) return answer(400);
      if (record.headers.contentEncoding !== 'aes128gcm') {
        return answer(400, 'Invalid crypto headers: Content-Encoding must be aes128gcm');
      }
      if (!vapid.ok) return answer(vapid.status, vapid.message);
      if (body.length > MAX_BODY) return answer(413);
      const scripted = scripts.get(subscription.id);
      const taken = scripted && scripted.left > 0 ? scripted : undefined;
      if (taken) taken.left--;
      const reply = () => {
        if (taken && taken.status !== 201) {
          const retry = taken.retryAfter ? { 'Retry-After': taken.retryAfter } : undefined;
          return answer(taken.status, undefined, retry);
        }
        record.status = 201;
        record.location = `${origin}/m/${randomUUID()}`;
        res.writeHead(201, { Location: record.location, 'Content-Length': '0' });
        res.end();
      };
      if (taken?.delayMs) setTimeout(reply, taken.delayMs);
      else reply();
    });
  };
  const server = options.http1Only
    ? createHttpsServer({ key: tls.key, cert: tls.cert }, handle)
    : createSecureServer({ key: tls.key, cert: tls.cert, allowHTTP1: true }, handle);
  server.on('session', (session: ServerHttp2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('secureConnection', (socket: import('node:net').Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    ca: tls.cert,
    subscribe(applicationServerKey) {
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys();
      const authBytes = randomBytes(16);
      const id = randomBytes(18).toString('base64url');
      const subscription = {
        id,
        endpoint: `${origin}/push/${id}`,
        keys: { p256dh: publicKey.toString('base64url'), auth: authBytes.toString('base64url') },
        applicationServerKey,
        privateKey: ecdh.getPrivateKey(),
        publicKey,
        authBytes,
      };
      subscriptions.set(id, subscription);
      return subscription;
    },
    script(subscription, answer) {
      scripts.set(subscription.id, { ...answer, left: answer.times ?? Number.POSITIVE_INFINITY });
    },
    get received() {
      return received;
    },
    receivedBy: (subscription) => received.filter((r) => r.subscriptionId === subscription.id),
    get connections() {
      return connections;
    },
    goAway: async () => {
      const closing = [...sessions].map((session) => once(session, 'close'));
      for (const session of sessions) session.close();
      await Promise.all(closing);
    },
    get maxInFlight() {
      return maxInFlight;
    },
    resetMaxInFlight: () => {
      maxInFlight = inFlight;
    },
    close: async () => {
      for (const session of sessions) session.destroy();
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
