/**
 * A local stand-in for SendGrid's `POST /v3/mail/send`: answers a scripted sequence of
 * statuses (202 once the script runs out) and records every request it received.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  status: number;
  /** JSON body; SendGrid's error shape by default for 4xx/5xx. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long before answering (to provoke client timeouts). */
  delayMs?: number;
  /** Only mail to this address takes this answer. */
  to?: string;
}

export interface RecordedMailRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: SendGridMailBody;
  /** The status the fake answered with. */
  status: number;
}

/** The parts of SendGrid's v3 mail body the tests look at. */
export interface SendGridMailBody {
  personalizations: Array<{ to: Array<{ email: string; name?: string }> }>;
  from: { email: string; name?: string };
  subject: string;
  content: Array<{ type: string; value: string }>;
  [key: string]: unknown;
}

export interface FakeSendGrid {
  /** The API origin, for SENDGRID_API_URL. */
  url: string;
  requests: RecordedMailRequest[];
  /** Appends answers to the script; each request takes the next one. */
  script(...answers: Array<number | ScriptedAnswer>): void;
  /** Appends answers taken only by mail to `to` (robust against other tests' mail). */
  scriptFor(to: string, ...answers: Array<number | ScriptedAnswer>): void;
  /** The requests that mailed `to`. */
  requestsTo(to: string): RecordedMailRequest[];
  /** Forgets the recorded requests and the rest of the script. */
  reset(): void;
  close(): Promise<void>;
}

/** SendGrid's error body: `{errors:[{message, field, help}]}`. */
export function sendGridErrorBody(message: string, field: string | null = null) {
  return { errors: [{ message, field, help: null }] };
}

export async function startFakeSendGrid(): Promise<FakeSendGrid> {
  const requests: RecordedMailRequest[] = [];
  let queue: ScriptedAnswer[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v3/mail/send') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify(sendGridErrorBody('not found')));
        return;
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      const recipient = (JSON.parse(raw) as SendGridMailBody).personalizations?.[0]?.to?.[0]?.email;
      // An answer meant for one recipient is not taken by mail to anyone else (other tests' leftovers).
      const index = queue.findIndex((a) => a.to === undefined || a.to === recipient);
      const answer = (index >= 0 ? queue.splice(index, 1)[0] : undefined) ?? { status: 202 };
      requests.push({
        method: req.method,
        path: req.url,
        headers: req.headers,
        body: JSON.parse(raw),
        status: answer.status,
      });
      const reply = () => {
        if (res.destroyed) return;
        if (answer.status === 202) {
          res.writeHead(202, { 'x-message-id': `fake-${requests.length}`, ...answer.headers });
          res.end();
          return;
        }
        const body = answer.body ?? sendGridErrorBody(`scripted ${answer.status}`);
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(JSON.stringify(body));
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs).unref();
      else reply();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...answers) => {
      queue.push(...answers.map((a) => (typeof a === 'number' ? { status: a } : a)));
    },
    scriptFor: (to, ...answers) => {
      queue.push(...answers.map((a) => ({ ...(typeof a === 'number' ? { status: a } : a), to })));
    },
    requestsTo: (to) => requests.filter((r) => r.body.personalizations?.[0]?.to?.[0]?.email === to),
    reset: () => {
      requests.length = 0;
      queue = [];
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
