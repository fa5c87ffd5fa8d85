/**
 * What the fake brokers (upstox.ts, angelone.ts, dhan.ts) share: a real node:http server on
 * 127.0.0.1:0 that records every request, failures a test scripts for the next API calls (each
 * fake answers them with its broker's own error bodies), and the login page a browser test
 * clicks through ("Log in" / "Cancel", each a link back to the app's redirect URL).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A failure to answer with instead of the real answer. */
export type ScriptedFailure =
  /** The broker's expired/invalid-token answer. */
  | 'expired'
  /** The broker's rate-limit answer (Retry-After when it sends one). */
  | 'rate_limited'
  /** HTTP 500. */
  | 'server_error'
  /** No answer at all (the client's timeout must end the call). */
  | 'hang'
  /** A 200 whose rows miss a documented field. */
  | 'malformed'
  /** The broker's answer for an account with no holdings. */
  | 'no_holdings';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeRequest extends RecordedRequest {
  url: URL;
}

/** The answer a fake's handler gives; `hang` leaves the request unanswered. */
export type FakeAnswer =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; text: string; headers?: Record<string, string> }
  | { status: number; html: string }
  | { status: number; redirect: string }
  | 'hang';

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts a fake on 127.0.0.1:0 answering each request with `handle`. */
export async function startFakeServer(
  handle: (req: FakeRequest) => FakeAnswer | Promise<FakeAnswer>,
): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      void Promise.resolve(handle({ ...recorded, url })).then((answer) => {
        if (answer === 'hang') return;
        if ('redirect' in answer) {
          res.writeHead(answer.status, { location: answer.redirect }).end();
        } else if ('html' in answer) {
          res.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8' }).end(answer.html);
        } else if ('json' in answer) {
          res
            .writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
            .end(JSON.stringify(answer.json));
        } else {
          res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(answer.text);
        }
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The failures scripted for the next API calls, first in first out. */
export class FailureScript {
  private queue: ScriptedFailure[] = [];
  push(...failures: ScriptedFailure[]): void {
    this.queue.push(...failures);
  }
  next(): ScriptedFailure | undefined {
    return this.queue.shift();
  }
  clear(): void {
    this.queue = [];
  }
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A broker's login page: its name, and "Log in" / "Cancel" links back to the app. */
export function loginPage(broker: string, logIn: string, cancel: string): FakeAnswer {
  return {
    status: 200,
    html: `<!doctype html><html lang="en"><head><title>${escapeHtml(broker)} login</title></head><body>
<main><h1>Log in to ${escapeHtml(broker)}</h1><p>This app asks to read your holdings.</p>
<a href="${escapeHtml(logIn)}">Log in</a> <a href="${escapeHtml(cancel)}">Cancel</a></main></body></html>`,
  };
}

/** `base` with `params` added to its query. */
export function withQuery(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}
