import { MailTransientError, type MailMessage, type Mailer } from './mailer.ts';

export interface RetryOptions {
  /** Tries in all, the first included. */
  attempts: number;
  /** Delay before the second try; doubled for each one after. */
  baseDelayMs: number;
  /** Upper bound for one delay, including a provider's Retry-After. */
  maxDelayMs?: number;
}

/**
 * Sends with back-off on transient failures; a permanent failure, or the last transient one,
 * is thrown. For callers that wait in-process; the delivery worker keeps its own schedule.
 */
export async function sendWithRetry(mailer: Mailer, message: MailMessage, opts: RetryOptions): Promise<void> {
  const maxDelay = opts.maxDelayMs ?? 60_000;
  for (let attempt = 1; ; attempt++) {
    try {
      await mailer.send(message);
      return;
    } catch (err) {
      if (!(err instanceof MailTransientError) || attempt >= opts.attempts) throw err;
      const backoff = opts.baseDelayMs * 2 ** (attempt - 1);
      const delay = Math.min(maxDelay, Math.max(backoff, err.retryAfterMs ?? 0));
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
