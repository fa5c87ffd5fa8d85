/**
 * SendGrid's v3 mail API through @sendgrid/mail. Errors are classified by HTTP status only:
 * 429 and 5xx (and no answer at all: timeouts, network) are transient, other 4xx permanent.
 *
 * A batch goes out as few requests as SendGrid allows: one body with substitution tags and up to
 * 1,000 personalizations (each its address, subject and tag values). SendGrid refuses a whole
 * request for one malformed address (400 naming `personalizations.<i>…`): those recipients fail
 * with SendGrid's reason and the rest go out again at once, so one bad address never holds back
 * the others. A request too large (413) is halved.
 */
import { Client } from '@sendgrid/client';
import { MailService } from '@sendgrid/mail';
import { SUBSTITUTION_WRAPPERS, type MailBatch, type RecipientOutcome } from './batch.ts';
import { MailPermanentError, MailTransientError, oneLine, type MailMessage, type Mailer } from './mailer.ts';

export const SENDGRID_TIMEOUT_MS = 10_000;
/** Personalizations one mail send request may carry (SendGrid's documented limit). */
export const SENDGRID_MAX_PERSONALIZATIONS = 1000;
/** Requests of one batch in flight at once. */
export const SENDGRID_PARALLEL_REQUESTS = 8;

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

interface SendGridError {
  message?: unknown;
  field?: unknown;
}

function errorsOf(body: unknown): SendGridError[] {
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) ? (errors as SendGridError[]) : [];
}

/** SendGrid's error body `{errors:[{message, field, help}]}` as one sentence. */
function describeErrors(errors: SendGridError[], status: number): string {
  const parts = errors
    .map((e) => [e.field, e.message].filter((p) => typeof p === 'string' && p).join(': '))
    .filter(Boolean);
  return parts.length ? `HTTP ${status}: ${parts.join('; ')}` : `HTTP ${status}`;
}

const numberOf = (raw: unknown) => (typeof raw === 'string' || typeof raw === 'number' ? Number(raw) : NaN);

/** Retry-After in seconds, else SendGrid's own X-RateLimit-Reset (a Unix time in seconds). */
function retryAfterMs(headers: Record<string, unknown> | undefined, now = Date.now()): number | undefined {
  const seconds = numberOf(headers?.['retry-after']);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const reset = numberOf(headers?.['x-ratelimit-reset']);
  return Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - now) : undefined;
}

/** Maps whatever @sendgrid/client rejected with onto the two mail error classes. */
export function classifySendGridError(err: unknown): MailTransientError | MailPermanentError {
  const failure = err as HttpFailure;
  if (typeof failure.code === 'number' && failure.response) {
    const status = failure.code;
    const reason = describeErrors(errorsOf(failure.response.body), status);
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

/**
 * The personalizations a 400 names (`personalizations.<i>.…`), with SendGrid's reasons: the
 * recipients SendGrid refused. Empty when the refusal is about the request as a whole.
 */
function refusedPersonalizations(err: unknown): Map<number, string> {
  const failure = err as HttpFailure;
  const refused = new Map<number, string>();
  if (failure.code !== 400 || !failure.response) return refused;
  const byIndex = new Map<number, SendGridError[]>();
  for (const e of errorsOf(failure.response.body)) {
    const index =
      typeof e.field === 'string' ? /^personalizations\.(\d+)(\.|$)/.exec(e.field)?.[1] : undefined;
    if (index !== undefined) byIndex.set(Number(index), [...(byIndex.get(Number(index)) ?? []), e]);
  }
  for (const [index, errors] of byIndex) refused.set(index, describeErrors(errors, 400));
  return refused;
}

/**
 * Recipients in requests: at most 1,000 each, and an address at most once per request (SendGrid
 * documents "each unique email address in the personalizations array should only be included
 * once"), so a user's second alert of the batch goes in the next request.
 */
function requestsFor(batch: MailBatch): number[][] {
  const rounds: number[][] = [];
  const seen = new Map<string, number>();
  batch.recipients.forEach((r, i) => {
    const address = r.to.trim().toLowerCase();
    const round = seen.get(address) ?? 0;
    seen.set(address, round + 1);
    (rounds[round] ??= []).push(i);
  });
  return rounds.flatMap((round) => {
    const requests: number[][] = [];
    for (let i = 0; i < round.length; i += SENDGRID_MAX_PERSONALIZATIONS)
      requests.push(round.slice(i, i + SENDGRID_MAX_PERSONALIZATIONS));
    return requests;
  });
}

export function createSendGridMailer(options: SendGridOptions): Mailer {
  const client = new Client();
  client.setApiKey(options.apiKey);
  // setApiKey resets the base URL to SendGrid's, so the override comes after it.
  if (options.apiUrl) client.setDefaultRequest('baseUrl', options.apiUrl);
  const service = new MailService();
  service.setClient(client);
  service.setTimeout(options.timeoutMs ?? SENDGRID_TIMEOUT_MS);
  // Verification links must reach the app as written, not through a click-tracking redirect.
  const trackingSettings = { clickTracking: { enable: false, enableText: false } };

  async function sendRequest(batch: MailBatch, indices: number[], outcomes: RecipientOutcome[]) {
    try {
      await service.send({
        from: options.from,
        personalizations: indices.map((i) => ({
          to: batch.recipients[i]!.to,
          subject: oneLine(batch.recipients[i]!.subject),
          substitutions: batch.recipients[i]!.substitutions,
          ...(batch.recipients[i]!.headers ? { headers: batch.recipients[i]!.headers } : {}),
        })),
        substitutionWrappers: SUBSTITUTION_WRAPPERS,
        content: [
          { type: 'text/plain', value: batch.template.text },
          { type: 'text/html', value: batch.template.html },
        ],
        trackingSettings,
      });
      for (const i of indices) outcomes[i] = { kind: 'sent' };
    } catch (err) {
      const refused = refusedPersonalizations(err);
      if (refused.size > 0) {
        const retry: number[] = [];
        indices.forEach((i, position) => {
          const reason = refused.get(position);
          if (reason === undefined) retry.push(i);
          else outcomes[i] = { kind: 'failed', error: new MailPermanentError(reason, { cause: err }) };
        });
        // Resent only when the refusal named someone here (else it would be sent as it was).
        if (retry.length < indices.length) {
          if (retry.length > 0) await sendRequest(batch, retry, outcomes);
          return;
        }
      }
      if ((err as HttpFailure).code === 413 && indices.length > 1) {
        const half = Math.ceil(indices.length / 2);
        await sendRequest(batch, indices.slice(0, half), outcomes);
        await sendRequest(batch, indices.slice(half), outcomes);
        return;
      }
      const error = classifySendGridError(err);
      for (const i of indices) outcomes[i] = { kind: 'failed', error };
    }
  }

  return {
    kind: 'sendgrid',
    maxBatch: SENDGRID_MAX_PERSONALIZATIONS,
    close: () => undefined,
    async sendBatch(batch: MailBatch) {
      const outcomes: RecipientOutcome[] = [];
      const requests = requestsFor(batch);
      // A few requests at once: a batch (claimed for 2 minutes) never waits for its requests
      // one after another, however many alerts one user has in it.
      const lanes = Array.from(
        { length: Math.min(SENDGRID_PARALLEL_REQUESTS, requests.length) },
        async () => {
          for (let indices = requests.shift(); indices; indices = requests.shift()) {
            await sendRequest(batch, indices, outcomes);
          }
        },
      );
      await Promise.all(lanes);
      return outcomes;
    },
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
          ...(message.headers ? { headers: message.headers } : {}),
          trackingSettings,
        });
      } catch (err) {
        throw classifySendGridError(err);
      }
    },
  };
}
