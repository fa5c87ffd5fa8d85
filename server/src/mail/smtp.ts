/**
 * SMTP through nodemailer. SMTP semantics: a 4xx reply is a temporary failure (retry), a 5xx
 * reply is permanent. Without a reply, connection-level failures are temporary.
 */
import nodemailer from 'nodemailer';
import { MailPermanentError, MailTransientError, oneLine, type MailMessage, type Mailer } from './mailer.ts';

export const SMTP_TIMEOUT_MS = 10_000;

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
}

export function createSmtpMailer(options: SmtpOptions): Mailer {
  const timeout = options.timeoutMs ?? SMTP_TIMEOUT_MS;
  const transport = nodemailer.createTransport({
    url: options.url,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    kind: 'smtp',
    async send(message: MailMessage) {
      try {
        await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: oneLine(message.subject),
          text: message.text,
          html: message.html,
        });
      } catch (err) {
        throw classifySmtpError(err);
      }
    },
  };
}
