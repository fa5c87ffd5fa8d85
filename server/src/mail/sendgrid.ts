/**
 * SendGrid's v3 mail API through @sendgrid/mail. Errors are classified by HTTP status only:
 * 429 and 5xx (and no answer at all: timeouts, network) are transient, other 4xx permanent.
 */
import { Client } from '@sendgrid/client';
import { MailService } from '@sendgrid/mail';
import { MailPermanentError, MailTransientError, oneLine, type MailMessage, type Mailer } from './mailer.ts';

export const SENDGRID_TIMEOUT_MS = 10_000;

export interface SendGridOptions {
  apiKey: string;
  from: string;
  /** Another API origin (a local fake in tests); SendGrid's own when omitted. */
  apiUrl?: string;
  timeoutMs?: number;
}

interface HttpFailure {
  code?: unknown;
  response?: { headers?: Record<string, unknown>; body?: unknown };
  isAxiosError?: boolean;
}

/** SendGrid's error body `{errors:[{message, field, help}]}` as one sentence. */
function describeErrors(body: unknown, status: number): string {
  const errors = (body as { errors?: Array<{ message?: unknown; field?: unknown }> } | undefined)?.errors;
  const parts = Array.isArray(errors)
    ? errors
        .map((e) => [e.field, e.message].filter((p) => typeof p === 'string' && p).join(': '))
        .filter(Boolean)
    : [];
  return parts.length ? `HTTP ${status}: ${parts.join('; ')}` : `HTTP ${status}`;
}

function retryAfterMs(headers: Record<string, unknown> | undefined): number | undefined {
  const raw = headers?.['retry-after'];
  const seconds = typeof raw === 'string' || typeof raw === 'number' ? Number(raw) : NaN;
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** Maps whatever @sendgrid/client rejected with onto the two mail error classes. */
export function classifySendGridError(err: unknown): MailTransientError | MailPermanentError {
  const failure = err as HttpFailure;
  if (typeof failure.code === 'number' && failure.response) {
    const status = failure.code;
    const reason = describeErrors(failure.response.body, status);
    if (status === 429 || status >= 500) {
      return new MailTransientError(reason, retryAfterMs(failure.response.headers), { cause: err });
    }
    return new MailPermanentError(reason, { cause: err });
  }
  if (failure.isAxiosError) {
    const code = typeof failure.code === 'string' ? failure.code : 'no response';
    return new MailTransientError(`SendGrid unreachable (${code})`, undefined, { cause: err });
  }
  // The library refused the message before sending it (a malformed address or body).
  return new MailPermanentError(err instanceof Error ? err.message : String(err), { cause: err });
}

export function createSendGridMailer(options: SendGridOptions): Mailer {
  const client = new Client();
  client.setApiKey(options.apiKey);
  // setApiKey resets the base URL to SendGrid's, so the override comes after it.
  if (options.apiUrl) client.setDefaultRequest('baseUrl', options.apiUrl);
  const service = new MailService();
  service.setClient(client);
  service.setTimeout(options.timeoutMs ?? SENDGRID_TIMEOUT_MS);
  return {
    kind: 'sendgrid',
    async send(message: MailMessage) {
      try {
        await service.send({
          to: message.to,
          from: options.from,
          subject: oneLine(message.subject),
          content: [
            { type: 'text/plain', value: message.text },
            { type: 'text/html', value: message.html },
          ],
          // Verification links must reach the app as written, not through a click-tracking redirect.
          trackingSettings: { clickTracking: { enable: false, enableText: false } },
        });
      } catch (err) {
        throw classifySendGridError(err);
      }
    },
  };
}
