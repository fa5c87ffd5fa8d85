/** What the runtime and the engine see of the delivery worker, in either mode. */
import type { DeliveryLane } from './outbox.ts';
import type { DeliveryOutcome, RetryPolicy } from './send.ts';

export interface DeliveryWorker {
  /** `poll` without Redis; `queue` (BullMQ) with it. */
  readonly mode: 'poll' | 'queue';
  start(): void;
  /** Outbox rows just committed by a trigger: send them soon. */
  dispatch(deliveryIds: string[]): void;
  /** Stops taking work and waits for the sends in flight. */
  stop(): Promise<void>;
}

export interface DeliveryWorkerOptions {
  retry: RetryPolicy;
  /** Embedded: how often due rows are looked for. */
  pollMs: number;
  /** Rows claimed and handed to the mailer as one batch (at most the mailer's maxBatch). */
  batchSize: number;
  /** Batches sending at once (polling: when the outbox holds more than one; queue: jobs at once). */
  concurrency: number;
  /** How long a claimed row stays claimed before another worker may take it. */
  lockMs: number;
  /** Queue mode: how often rows whose job may be lost are re-enqueued, and how old they must be. */
  sweepMs: number;
  graceMs: number;
  /** BullMQ key prefix (tests sharing one Redis with different databases set their own). */
  queuePrefix: string;
  /**
   * Resolves when the market's claims known so far are committed (this instance's own, or, on an
   * instance that only observes the batches, the owner's of the crossings it saw): a batch waits
   * for it (at most `claimsWaitMs` of its lane) before it claims outbox rows, so on a crash day
   * the emails' database work does not slow the claims that put the alerts on screen. None:
   * batches never wait.
   */
  claimsFirst?: () => Promise<unknown>;
  /**
   * How long each lane waits for `claimsFirst`. The fast lane's wait is short: an email or a push
   * must not sit behind a slow commit. The paced lane (Telegram) waits for the claims to the end:
   * a user's notices of one crash fall in several claim chunks, and the chat gets one message
   * listing them all only if none is claimed before the last chunk commits (B9: a 14.5 s commit
   * past a 10 s wait sent 161 chats two messages). Its pace makes the wait cheap; the bound is
   * only for a claim that never ends.
   */
  claimsWaitMs: Record<DeliveryLane, number>;
  /** Told of every attempt's outcome (metrics count the failures). */
  onOutcome?: (outcome: DeliveryOutcome) => void;
}
