/**
 * How the Web Push sender reaches a push service: over HTTP/2 when the service offers it in the
 * TLS handshake (FCM, Mozilla's autopush and Apple's push service do), one session per origin
 * carrying every request at once; over HTTP/1.1 through undici's kept-alive pool when it does
 * not. Node's HTTP/2 client frames and parses in C++ (nghttp2): in a server's first burst of
 * pushes it costs about a third of the CPU of undici's HTTP/1.1, whose parser and request layers
 * are still warming up (B10, bench/README.md). Either way TLS is verified against the system's
 * roots (and a test CA), and connections resolve names through the caller's `lookup` (the
 * address guard), so the address connected to is the one checked.
 */
import type { LookupFunction } from 'node:net';
import http2, { type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import { connect as tlsConnect, type SecureContext } from 'node:tls';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';

/** A push service's answer. */
export interface PushAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface PushTransport {
  post(url: string, headers: Record<string, string>, body: Buffer): Promise<PushAnswer>;
}

export interface PushTransportOptions {
  /** Connect, headers and body timeout of one request. */
  timeoutMs: number;
  /** HTTP/1.1 connections per origin (an HTTP/2 session carries any number of requests). */
  connections: number;
  secureContext?: SecureContext | undefined;
  lookup?: LookupFunction | undefined;
}

/** An idle HTTP/2 session is closed after this long (the next push opens another). */
const SESSION_IDLE_MS = 5 * 60_000;
/** An origin that answered without HTTP/2 is asked again after this long. */
const HTTP1_RECHECK_MS = 10 * 60_000;

interface Session {
  kind: 'h2';
  session: ClientHttp2Session;
  /** Requests in flight: the session holds the process open only while there are some. */
  inFlight: number;
}
type Route = Session | { kind: 'h1'; until: number };

/** The request timed out: the message the sender's outcome carries. */
class PushTimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer in ${ms / 1000} s`);
  }
}

const usable = (route: Route | undefined): route is Route =>
  route !== undefined &&
  (route.kind === 'h1'
    ? route.until > Date.now()
    : // A GOAWAY closes the session (its streams in flight finish): new requests open another.
      !route.session.closed && !route.session.destroyed);

export function createPushTransport(opts: PushTransportOptions): PushTransport {
  const routes = new Map<string, Promise<Route>>();
  const http1 = new Agent({
    connections: opts.connections,
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
    connect: {
      timeout: opts.timeoutMs,
      ...(opts.secureContext ? { secureContext: opts.secureContext } : {}),
      ...(opts.lookup ? { lookup: opts.lookup } : {}),
    },
  });

  /** TLS to the origin offering h2 and http/1.1; an HTTP/2 session if the service chose h2. */
  function open(origin: string): Promise<Route> {
    const url = new URL(origin);
    return new Promise<Route>((resolve, reject) => {
      const socket = tlsConnect({
        host: url.hostname,
        port: Number(url.port || 443),
        ...(isIP(url.hostname) ? {} : { servername: url.hostname }),
        ALPNProtocols: ['h2', 'http/1.1'],
        ...(opts.secureContext ? { secureContext: opts.secureContext } : {}),
        ...(opts.lookup ? { lookup: opts.lookup } : {}),
      });
      socket.setTimeout(opts.timeoutMs, () => socket.destroy(new PushTimeoutError(opts.timeoutMs)));
      socket.once('error', reject);
      socket.once('secureConnect', () => {
        socket.setTimeout(0);
        socket.removeListener('error', reject);
        if (socket.alpnProtocol !== 'h2') {
          socket.destroy();
          resolve({ kind: 'h1', until: Date.now() + HTTP1_RECHECK_MS });
          return;
        }
        const session = http2.connect(origin, { createConnection: () => socket });
        // A session's failure reaches its streams' requests; the next request opens another.
        session.on('error', () => undefined);
        session.setTimeout(SESSION_IDLE_MS, () => session.close());
        session.unref();
        resolve({ kind: 'h2', session, inFlight: 0 });
      });
    });
  }

  /** The origin's session or HTTP/1.1 mark, opened once however many requests ask at once. */
  async function routeTo(origin: string): Promise<Route> {
    const known = routes.get(origin);
    if (known) {
      const settled = await known.catch(() => undefined);
      if (usable(settled)) return settled;
      if (routes.get(origin) === known) routes.delete(origin);
      // Another request may have opened a new one meanwhile.
      const newer = routes.get(origin);
      if (newer) return routeTo(origin);
    }
    const opening = open(origin);
    routes.set(origin, opening);
    // A failed connect is not remembered: the next push tries again.
    opening.catch(() => {
      if (routes.get(origin) === opening) routes.delete(origin);
    });
    return opening;
  }

  async function postHttp1(url: string, headers: Record<string, string>, body: Buffer): Promise<PushAnswer> {
    const answer = await request(url, { method: 'POST', headers, body, dispatcher: http1 });
    return { statusCode: answer.statusCode, headers: answer.headers, body: await answer.body.text() };
  }

  function postHttp2(
    route: Session,
    url: URL,
    headers: Record<string, string>,
    body: Buffer,
  ): Promise<PushAnswer> {
    return new Promise<PushAnswer>((resolve, reject) => {
      const outgoing: Record<string, string> = { ':method': 'POST', ':path': url.pathname + url.search };
      for (const [name, value] of Object.entries(headers)) outgoing[name.toLowerCase()] = value;
      const { session } = route;
      const stream = session.request(outgoing);
      if (route.inFlight++ === 0) session.ref();
      let answered: IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      stream.setTimeout(opts.timeoutMs, () => stream.destroy(new PushTimeoutError(opts.timeoutMs)));
      stream.on('response', (h) => (answered = h));
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const { ':status': status, ...rest } = answered;
        resolve({ statusCode: Number(status), headers: rest, body: Buffer.concat(chunks).toString('utf8') });
      });
      stream.on('error', reject);
      stream.on('close', () => {
        if (--route.inFlight === 0 && !session.destroyed) session.unref();
        // Closed without an answer (a GOAWAY that left it out, a reset): no outcome yet.
        reject(new Error(`the push service closed the stream (code ${stream.rstCode})`));
      });
      stream.end(body);
    });
  }

  return {
    async post(url, headers, body) {
      const target = new URL(url);
      const chosen = await routeTo(target.origin);
      return chosen.kind === 'h2' ? postHttp2(chosen, target, headers, body) : postHttp1(url, headers, body);
    },
  };
}
