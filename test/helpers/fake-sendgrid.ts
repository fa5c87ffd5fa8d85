/**
 * A local stand-in for SendGrid's `POST /v3/mail/send` that answers as SendGrid does, and
 * records every request. Where each answer's shape comes from:
 * - 202 Accepted, an empty body and an `X-Message-Id` header: the Mail Send API reference.
 * - 400 `{errors:[{message, field, help}]}`: the v3 errors page (docs "Mail Send Errors", one
 *   entry per field, e.g. field `personalizations.3.to.0.email`, "Does not contain a valid
 *   address."); more than 1,000 personalizations: "The personalization block is limited to 1000
 *   personalizations per API request. You have provided [n] personalizations. …" on field
 *   `personalizations`; an address twice in one request: "Each unique email address in the
 *   personalizations array should only be included once. …".
 * - 401 without a valid key (not `SG.…`, or `SG.revoked…` standing for a revoked one): `{"errors":[{"message":"The provided authorization grant is
 *   invalid, expired, or revoked","field":null,"help":null}]}` (as SendGrid answers it, quoted
 *   in sendgrid-php#793 and sendgrid-nodejs#283); 403 when scripted.
 * - 413 for a body over 30 MB: an nginx HTML page, not JSON (sendgrid-nodejs#370).
 * - 429 with `X-RateLimit-Limit`, `X-RateLimit-Remaining: 0`, `X-RateLimit-Reset` (a Unix time)
 *   and `{"errors":[{"field":null,"message":"too many requests"}]}` (docs "Rate Limits").
 * Substitutions are applied per personalization as SendGrid does (each `-tag-` in the subject
 * and both bodies), so `mailsTo` shows what each recipient received.
 *
 * Tests script other answers: each request takes the next scripted one (202 once the script
 * runs out); one scripted for an address is taken only by a request that mails it.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appSuite, type BootOptions } from './app.ts';
import { madeBefore } from './made-before.ts';

export interface ScriptedAnswer {
  status: number;
  /** JSON body; by default SendGrid's error shape for 4xx/5xx (for a 400 scripted for an address, naming its personalization). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long before answering (to provoke client timeouts). */
  delayMs?: number;
  /** Only a request mailing this address takes this answer. */
  to?: string;
}

/** One email as its recipient gets it, substitutions applied. */
export interface FakeMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Headers the request or its personalization gave (List-Unsubscribe), when any. */
  headers?: Record<string, string>;
}

export interface RecordedMailRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: SendGridMailBody;
  /** Every personalization's email, as it would be delivered. */
  mails: FakeMail[];
  /** The status the fake answered with. */
  status: number;
}

interface Personalization {
  to: Array<{ email: string; name?: string }>;
  subject?: string;
  substitutions?: Record<string, string>;
  /** This personalization's own headers (List-Unsubscribe), over the request's. */
  headers?: Record<string, string>;
}

/** The parts of SendGrid's v3 mail body the tests look at. */
export interface SendGridMailBody {
  personalizations: Personalization[];
  from: { email: string; name?: string };
  subject?: string;
  content: Array<{ type: string; value: string }>;
  [key: string]: unknown;
}

export interface FakeSendGridOptions {
  /** SendGrid's limit is 30 MB; a test of the 413 path sets a small one. */
  maxBodyBytes?: number;
}

export interface FakeSendGrid {
  /** The API origin, for SENDGRID_API_URL. */
  url: string;
  requests: RecordedMailRequest[];
  /** Appends answers to the script; each request takes the next one. */
  script(...answers: Array<number | ScriptedAnswer>): void;
  /** Appends answers taken only by requests mailing `to` (robust against other tests' mail). */
  scriptFor(to: string, ...answers: Array<number | ScriptedAnswer>): void;
  /** The requests that mailed `to`, whatever the answer. */
  requestsTo(to: string): RecordedMailRequest[];
  /** The emails `to` received: from requests answered 202. */
  mailsTo(to: string): FakeMail[];
  /** Forgets the recorded requests and the rest of the script. */
  reset(): void;
  close(): Promise<void>;
}

export const SENDGRID_MAX_BODY_BYTES = 30 * 1024 * 1024;
const MAX_PERSONALIZATIONS = 1000;

/** SendGrid's error body: `{errors:[{message, field, help}]}`. */
export function sendGridErrorBody(message: string, field: string | null = null) {
  return { errors: [{ message, field, help: null }] };
}

const PAYLOAD_TOO_LARGE = `<html>
<head><title>413 Request Entity Too Large</title></head>
<body bgcolor="white">
<center><h1>413 Request Entity Too Large</h1></center>
<hr><center>nginx</center>
</body>
</html>
`;

/** A plain address check: SendGrid's is stricter, but this is what the tests need to refuse. */
const VALID_ADDRESS = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/** Each `-tag-` replaced by its value, in one pass (SendGrid's legacy substitutions). */
function substitute(text: string, substitutions: Record<string, string> = {}): string {
  const names = Object.keys(substitutions);
  if (names.length === 0) return text;
  const escaped = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return text.replace(new RegExp(escaped.join('|'), 'g'), (tag) => substitutions[tag]!);
}

function mailsOf(body: SendGridMailBody): FakeMail[] {
  const content = (type: string) => body.content?.find((c) => c.type === type)?.value ?? '';
  return (body.personalizations ?? []).map((p) => {
    const headers = { ...(body.headers as Record<string, string> | undefined), ...p.headers };
    return {
      to: p.to?.[0]?.email ?? '',
      subject: substitute(p.subject ?? body.subject ?? '', p.substitutions),
      text: substitute(content('text/plain'), p.substitutions),
      html: substitute(content('text/html'), p.substitutions),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
    };
  });
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** What SendGrid itself refuses before any script applies (its validation of the request). */
function validate(body: SendGridMailBody): ScriptedAnswer | undefined {
  const personalizations = body.personalizations ?? [];
  if (personalizations.length > MAX_PERSONALIZATIONS) {
    return {
      status: 400,
      body: sendGridErrorBody(
        `The personalization block is limited to ${MAX_PERSONALIZATIONS} personalizations per API request. You have provided ${personalizations.length} personalizations. Please consider splitting this into multiple requests and resending your request.`,
        'personalizations',
      ),
    };
  }
  const errors: Array<{ message: string; field: string; help: null }> = [];
  const seen = new Set<string>();
  personalizations.forEach((p, i) => {
    const email = p.to?.[0]?.email ?? '';
    if (!VALID_ADDRESS.test(email)) {
      errors.push({
        message: 'Does not contain a valid address.',
        field: `personalizations.${i}.to.0.email`,
        help: null,
      });
    } else if (seen.has(email.toLowerCase())) {
      errors.push({
        message: `Each unique email address in the personalizations array should only be included once. You have included ${email} more than once.`,
        field: 'personalizations',
        help: null,
      });
    }
    seen.add(email.toLowerCase());
  });
  return errors.length > 0 ? { status: 400, body: { errors } } : undefined;
}

function errorBody(answer: ScriptedAnswer, body: SendGridMailBody): unknown {
  if (answer.body !== undefined) return answer.body;
  if (answer.status === 429) return { errors: [{ field: null, message: 'too many requests' }] };
  if (answer.status === 400 && answer.to) {
    const index = (body.personalizations ?? []).findIndex((p) => same(p.to?.[0]?.email ?? '', answer.to!));
    return sendGridErrorBody('Does not contain a valid address.', `personalizations.${index}.to.0.email`);
  }
  return sendGridErrorBody(`scripted ${answer.status}`);
}

export async function startFakeSendGrid(options: FakeSendGridOptions = {}): Promise<FakeSendGrid> {
  const maxBodyBytes = options.maxBodyBytes ?? SENDGRID_MAX_BODY_BYTES;
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
      const raw = Buffer.concat(chunks);
      if (raw.length > maxBodyBytes) {
        res.writeHead(413, { 'content-type': 'text/html' });
        res.end(PAYLOAD_TOO_LARGE);
        return;
      }
      const body = JSON.parse(raw.toString('utf8')) as SendGridMailBody;
      const recipients = (body.personalizations ?? []).map((p) => p.to?.[0]?.email ?? '');
      const key = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const refusal =
        !key?.startsWith('SG.') || key.startsWith('SG.revoked')
          ? {
              status: 401,
              body: sendGridErrorBody('The provided authorization grant is invalid, expired, or revoked'),
            }
          : validate(body);
      // An answer meant for one address is not taken by mail to anyone else (other tests' leftovers).
      const index = refusal
        ? -1
        : queue.findIndex((a) => a.to === undefined || recipients.some((to) => same(to, a.to!)));
      const answer = refusal ?? (index >= 0 ? queue.splice(index, 1)[0] : undefined) ?? { status: 202 };
      let mails: FakeMail[] | undefined;
      requests.push({
        method: req.method,
        path: req.url,
        headers: req.headers,
        body,
        // Filled in when a test looks: a benchmark's thousands of emails cost nothing until then.
        get mails() {
          return (mails ??= mailsOf(body));
        },
        status: answer.status,
      });
      const reply = () => {
        if (res.destroyed) return;
        if (answer.status === 202) {
          res.writeHead(202, { 'x-message-id': `fake-${requests.length}`, ...answer.headers });
          res.end();
          return;
        }
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (answer.status === 429) {
          headers['x-ratelimit-limit'] = '600';
          headers['x-ratelimit-remaining'] = '0';
          headers['x-ratelimit-reset'] = String(Math.ceil(Date.now() / 1000) + 1);
        }
        res.writeHead(answer.status, { ...headers, ...answer.headers });
        res.end(JSON.stringify(errorBody(answer, body)));
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
    requestsTo: (to) =>
      requests.filter((r) => (r.body.personalizations ?? []).some((p) => same(p.to?.[0]?.email ?? '', to))),
    mailsTo: (to) =>
      requests.filter((r) => r.status === 202).flatMap((r) => r.mails.filter((m) => same(m.to, to))),
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

/**
 * The opening of a suite whose app mails through SendGrid, called in its `describe`: a fake
 * SendGrid started first and emptied before each test, the app (`appSuite`, with `options` and
 * the fake's key and URL) on it, and the fake closed after the app.
 */
export function sendGridSuite(options: BootOptions, cleanUp?: () => Promise<void>) {
  let started: FakeSendGrid | undefined;
  const fake = madeBefore('the fake SendGrid', () => started);
  before(async () => {
    started = await startFakeSendGrid();
  });
  const { app, api } = appSuite(
    () => ({
      ...options,
      env: { SENDGRID_API_KEY: 'SG.fake-key', SENDGRID_API_URL: fake.url, ...options.env },
    }),
    cleanUp,
  );
  beforeEach(() => fake.reset());
  after(async () => {
    await started?.close();
  });
  return { app, api, fake };
}
