/**
 * A fake SendGrid (`POST /v3/mail/send`) that counts what it *accepted*: a message counts once
 * its 202 went out on a live connection. A request carries a batch (one personalization per
 * email): each personalization is one attempt, and they share the request's answer. It can hold requests (a provider that hangs), and a
 * held request whose client dies before the answer is not accepted, as a provider that never
 * finished receiving it would not send it.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MailAttempt {
  to: string;
  subject: string;
  /** accepted (202 sent), refused (another status), held (waiting), aborted (client gone first). */
  outcome: 'accepted' | 'refused' | 'held' | 'aborted';
  status?: number;
}

/** A scripted answer: a status, or a status after a delay. */
export type MailAnswer = number | { status: number; delayMs?: number };

export interface MailProvider {
  url: string;
  attempts: MailAttempt[];
  accepted(): MailAttempt[];
  held(): number;
  /** Holds every request from now on, until `answer()`. */
  hold(): void;
  /** Answers from now on (and the held ones still connected) with 202, or the scripted statuses. */
  answer(): void;
  /** The next requests get these statuses (a delay in ms with `{status, delayMs}`), then 202. */
  script(...answers: MailAnswer[]): void;
  /**
   * The next requests to `to` get these answers, then 202. Other senders' mail cannot use them
   * up: a test on a database shared with other tests may also deliver their leftover alerts.
   */
  scriptFor(to: string, ...answers: MailAnswer[]): void;
  close(): Promise<void>;
}

export async function startMailProvider(): Promise<MailProvider> {
  const attempts: MailAttempt[] = [];
  const waiting: Array<{ batch: MailAttempt[]; res: ServerResponse }> = [];
  let holding = false;
  const script: Array<{ status: number; delayMs?: number }> = [];
  const scripts = new Map<string, Array<{ status: number; delayMs?: number }>>();
  const scripted = (answers: MailAnswer[]) => answers.map((a) => (typeof a === 'number' ? { status: a } : a));

  const reply = (batch: MailAttempt[], res: ServerResponse, status: number) => {
    if (res.destroyed || res.socket?.destroyed) {
      for (const attempt of batch) attempt.outcome = 'aborted';
      return;
    }
    for (const attempt of batch) {
      attempt.status = status;
      attempt.outcome = status === 202 ? 'accepted' : 'refused';
    }
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(
      status === 202 ? '' : JSON.stringify({ errors: [{ message: `scripted ${status}`, field: null }] }),
    );
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v3/mail/send') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        personalizations: Array<{ to: Array<{ email: string }>; subject?: string }>;
        subject?: string;
      };
      const batch = body.personalizations.map((p): MailAttempt => ({
        to: p.to[0]!.email,
        subject: p.subject ?? body.subject ?? '',
        outcome: 'held',
      }));
      attempts.push(...batch);
      res.on('close', () => {
        for (const attempt of batch) if (attempt.outcome === 'held') attempt.outcome = 'aborted';
      });
      if (holding) {
        waiting.push({ batch, res });
        return;
      }
      // An answer scripted for one address is the whole request's, as SendGrid answers a request.
      const scriptedFor = batch.find((a) => scripts.get(a.to)?.length);
      const next = (scriptedFor && scripts.get(scriptedFor.to)!.shift()) ?? script.shift() ?? { status: 202 };
      if (next.delayMs) setTimeout(() => reply(batch, res, next.status), next.delayMs).unref();
      else reply(batch, res, next.status);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    attempts,
    accepted: () => attempts.filter((a) => a.outcome === 'accepted'),
    held: () => attempts.filter((a) => a.outcome === 'held').length,
    hold: () => {
      holding = true;
    },
    answer: () => {
      holding = false;
      for (const { batch, res } of waiting.splice(0)) reply(batch, res, 202);
    },
    script: (...answers) => {
      script.push(...scripted(answers));
    },
    scriptFor: (to, ...answers) => {
      scripts.set(to, [...(scripts.get(to) ?? []), ...scripted(answers)]);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
