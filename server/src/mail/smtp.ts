/**
 * SMTP through nodemailer. SMTP semantics: a 4xx reply is a temporary failure (retry), a 5xx
 * reply is permanent. Without a reply, connection-level failures are temporary.
 *
 * A pooled transport: a few connections kept open, each carrying many messages, so a batch of
 * alerts does not pay a TCP+TLS+AUTH handshake per email.
 */
import nodemailer from 'nodemailer';
import { sendEach, type MailBatch } from './batch.ts';
import { MailPermanentError, MailTransientError, oneLine, type MailMessage, type Mailer } from './mailer.ts';

export const SMTP_TIMEOUT_MS = 10_000;
/** Connections the pool opens at most, and messages one connection carries before it is renewed. */
export const SMTP_POOL = { maxConnections: 5, maxMessages: 100 } as const;
/**
 * Recipients handed over at once: the pool works through them 5 at a time, so a batch stays
 * well inside the delivery claim's lock (minutes) even on a slow server.
 */
export const SMTP_MAX_BATCH = 100;

const CONNECTION_CODES = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ETLS',
  'EPROXY',
  'EPROTOCOL',
]);

interface SmtpFailure {
  code?: unknown;
  responseCode?: unknown;
  response?: unknown;
  message?: unknown;
}

/** Maps a nodemailer error onto the two mail error classes by reply code, then error code. */
export function classifySmtpError(err: unknown): MailTransientError | MailPermanentError {
  const failure = (err ?? {}) as SmtpFailure;
  const reply = typeof failure.response === 'string' ? failure.response : String(failure.message ?? err);
  if (typeof failure.responseCode === 'number') {
    const reason = `SMTP ${failure.responseCode}: ${reply}`;
    if (failure.responseCode >= 400 && failure.responseCode < 500) {
      return new MailTransientError(reason, undefined, { cause: err });
    }
    return new MailPermanentError(reason, { cause: err });
  }
  if (typeof failure.code === 'string' && CONNECTION_CODES.has(failure.code)) {
    return new MailTransientError(`SMTP ${failure.code}: ${reply}`, undefined, { cause: err });
  }
  const code = typeof failure.code === 'string' ? `${failure.code}: ` : '';
  return new MailPermanentError(`SMTP ${code}${reply}`, { cause: err });
}

export interface SmtpOptions {
  url: string;
  from: string;
  timeoutMs?: number;
  /** Overrides SMTP_POOL (tests). */
  pool?: { maxConnections?: number; maxMessages?: number };
}

export function createSmtpMailer(options: SmtpOptions): Mailer {
  const timeout = options.timeoutMs ?? SMTP_TIMEOUT_MS;
  const transport = nodemailer.createTransport({
    url: options.url,
    pool: true,
    maxConnections: options.pool?.maxConnections ?? SMTP_POOL.maxConnections,
    maxMessages: options.pool?.maxMessages ?? SMTP_POOL.maxMessages,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  const mailer: Mailer = {
    kind: 'smtp',
    maxBatch: SMTP_MAX_BATCH,
    sendBatch: (batch: MailBatch) => sendEach(batch, (message) => mailer.send(message)),
    close: () => transport.close(),
    async send(message: MailMessage) {
      try {
        await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: oneLine(message.subject),
          text: message.text,
          html: message.html,
          ...(message.headers ? { headers: message.headers } : {}),
        });
      } catch (err) {
        throw classifySmtpError(err);
      }
    },
  };
  return mailer;
}
