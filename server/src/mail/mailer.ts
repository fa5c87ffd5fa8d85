/**
 * The mailer interface (docs/notifications.md): SendGrid, SMTP or the dev outbox, chosen once by
 * factory.ts. Callers see `send` (one message), `sendBatch` (many, see batch.ts) and two error
 * classes that say whether to retry.
 */
import type { MailBatch, RecipientOutcome } from './batch.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe); one line each. */
  headers?: Record<string, string>;
}

export interface Mailer {
  /** Which transport this is, for logs and health output. */
  readonly kind: 'sendgrid' | 'smtp' | 'outbox';
  /** Resolves once the provider accepted the message; throws MailTransientError or MailPermanentError. */
  send(message: MailMessage): Promise<void>;
  /** The most recipients one `sendBatch` should be given (what one provider request carries). */
  readonly maxBatch: number;
  /**
   * Hands every recipient's email to the provider; never throws. One outcome per recipient, in
   * order: `sent` only once the provider accepted that email.
   */
  sendBatch(batch: MailBatch): Promise<RecipientOutcome[]>;
  /** Lets go of kept connections (SMTP's pool); the runtime calls it last when closing. */
  close(): void;
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
