/**
 * Many emails in one hand-over to the provider. Every alert email has its own words (name,
 * symbol, prices, time), so a batch is one body with substitution tags (`-tagName-`, SendGrid's
 * legacy substitution format) and, per recipient, an address, a subject and the tags' values.
 * SendGrid fills the tags itself (one request, up to 1,000 personalizations); SMTP and the dev
 * outbox fill them here with `fillTemplate`, which does what SendGrid does, so every transport
 * delivers the same text.
 */
import { MailPermanentError, MailTransientError, type MailMessage } from './mailer.ts';

/** A text and an HTML body that may hold `-tagName-` substitution tags. */
export interface MailTemplate {
  text: string;
  html: string;
}

export interface BatchRecipient {
  to: string;
  /** Already final (SendGrid takes a subject per personalization). */
  subject: string;
  /** Tag name (letters and digits, without the dashes) → the value that replaces `-name-`. */
  substitutions: Record<string, string>;
  /** Headers of this recipient's email only (its List-Unsubscribe link). */
  headers?: Record<string, string>;
}

export interface MailBatch {
  template: MailTemplate;
  recipients: BatchRecipient[];
}

/** What became of one recipient's email: accepted by the provider, or why not. */
export type RecipientOutcome =
  { kind: 'sent' } | { kind: 'failed'; error: MailTransientError | MailPermanentError };

const TAG_NAME = /^[A-Za-z][A-Za-z0-9]*$/;
/** What goes either side of a tag name (SendGrid's `substitutionWrappers`). */
export const SUBSTITUTION_WRAPPERS: [string, string] = ['-', '-'];

/**
 * The tag for `name` as it appears in a template. Names are letters and digits only: SendGrid
 * asks for tags without spaces or HTML-special characters, and the dashes then delimit one tag
 * unambiguously (`-a-` is never part of `-ab-`).
 */
export function substitutionTag(name: string): string {
  if (!TAG_NAME.test(name)) throw new Error(`Invalid substitution tag name: ${name}`);
  return `${SUBSTITUTION_WRAPPERS[0]}${name}${SUBSTITUTION_WRAPPERS[1]}`;
}

/** Every tag replaced by its value in one pass: a value is never searched for tags again. */
function substitute(body: string, substitutions: Record<string, string>): string {
  const names = Object.keys(substitutions);
  if (names.length === 0) return body;
  const tags = new RegExp(names.map((name) => substitutionTag(name)).join('|'), 'g');
  return body.replace(tags, (tag) => substitutions[tag.slice(1, -1)]!);
}

/** The body one recipient receives. */
export function fillTemplate(template: MailTemplate, substitutions: Record<string, string>): MailTemplate {
  return { text: substitute(template.text, substitutions), html: substitute(template.html, substitutions) };
}

/** Recipient `index`'s email as a whole message (for transports that send one at a time). */
export function batchMessage(batch: MailBatch, index: number): MailMessage {
  const recipient = batch.recipients[index]!;
  return {
    to: recipient.to,
    subject: recipient.subject,
    ...fillTemplate(batch.template, recipient.substitutions),
    ...(recipient.headers ? { headers: recipient.headers } : {}),
  };
}

/**
 * For transports that take one message at a time (SMTP, the outbox): every recipient's message
 * through `send` at once (the transport queues them), each outcome kept apart.
 */
export async function sendEach(
  batch: MailBatch,
  send: (message: MailMessage) => Promise<void>,
): Promise<RecipientOutcome[]> {
  return Promise.all(
    batch.recipients.map(async (_, i): Promise<RecipientOutcome> => {
      try {
        await send(batchMessage(batch, i));
        return { kind: 'sent' };
      } catch (err) {
        if (err instanceof MailTransientError || err instanceof MailPermanentError)
          return { kind: 'failed', error: err };
        return {
          kind: 'failed',
          error: new MailTransientError('unexpected error while sending', undefined, { cause: err }),
        };
      }
    }),
  );
}
