/**
 * The mailer interface (ARCHITECTURE §2): SendGrid, SMTP or the dev outbox, chosen once by
 * factory.ts. Callers see only `send` and two error classes that say whether to retry.
 */

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Which transport this is, for logs and health output. */
  readonly kind: 'sendgrid' | 'smtp' | 'outbox';
  /** Resolves once the provider accepted the message; throws MailTransientError or MailPermanentError. */
  send(message: MailMessage): Promise<void>;
}

/** Sending failed for a reason that may pass (429, 5xx, timeout, network): retry later. */
export class MailTransientError extends Error {
  constructor(
    readonly reason: string,
    /** How long the provider asked us to wait, when it said so. */
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(`Mail not sent (temporary): ${reason}`, options);
    this.name = 'MailTransientError';
  }
}

/** The provider refused the message (other 4xx, or an SMTP 5xx): retrying will not help. */
export class MailPermanentError extends Error {
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`Mail refused: ${reason}`, options);
    this.name = 'MailPermanentError';
  }
}

/** Keeps header values on one line. */
export function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ').trim();
}
