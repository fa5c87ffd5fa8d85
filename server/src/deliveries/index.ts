/**
 * Deliveries: the worker that empties the alert outbox (`alert_deliveries`) in two lanes: the
 * fast lane (email, push, WhatsApp: BullMQ with Redis, database polling without) and the paced
 * lane (Telegram, always polling), so Telegram's 30 messages a second never hold the others'
 * next batch.
 */
import { createQueuedDeliveryWorker } from './queue.ts';
import { DEFAULT_RETRY, type DeliveryDeps } from './send.ts';
import type { DeliveryWorker, DeliveryWorkerOptions } from './types.ts';
import { createPollingDeliveryWorker } from './worker.ts';

export type { DeliveryWorker, DeliveryWorkerOptions } from './types.ts';

/** Tunables of the delivery worker; tests shorten the waits. */
export type DeliveryOverrides = Partial<Omit<DeliveryWorkerOptions, 'retry' | 'claimsWaitMs'>> & {
  retry?: Partial<DeliveryWorkerOptions['retry']>;
  claimsWaitMs?: Partial<DeliveryWorkerOptions['claimsWaitMs']>;
};

export const DEFAULT_DELIVERY: DeliveryWorkerOptions = {
  retry: DEFAULT_RETRY,
  pollMs: 2000,
  // MAIL_BATCH_SIZE in practice: createDeliveryWorker takes it from the config.
  batchSize: 1000,
  concurrency: 4,
  lockMs: 2 * 60_000,
  sweepMs: 15_000,
  graceMs: 30_000,
  queuePrefix: 'bull',
  // The fast lane: a crash's claims commit in seconds, and emails and pushes must never wait on a
  // queue that keeps growing. The paced lane: the longest a crash's claims have taken (14.5 s in
  // B9 on two shared cores), four times over.
  claimsWaitMs: { fast: 10_000, paced: 60_000 },
};

/** The fast lane (polling without Redis, BullMQ with it) beside the paced lane's polling worker. */
export function createDeliveryWorker(deps: DeliveryDeps, overrides: DeliveryOverrides = {}): DeliveryWorker {
  const opts: DeliveryWorkerOptions = {
    ...DEFAULT_DELIVERY,
    ...overrides,
    // A batch is what one provider hand-over carries (SendGrid: 1,000), or less if configured.
    batchSize: Math.max(
      1,
      Math.min(overrides.batchSize ?? deps.config.MAIL_BATCH_SIZE, deps.mailer.maxBatch),
    ),
    retry: { ...DEFAULT_DELIVERY.retry, ...overrides.retry },
    claimsWaitMs: { ...DEFAULT_DELIVERY.claimsWaitMs, ...overrides.claimsWaitMs },
  };
  const fast = deps.redis
    ? createQueuedDeliveryWorker(deps, deps.redis, opts)
    : createPollingDeliveryWorker(deps, opts);
  const paced = createPollingDeliveryWorker(deps, opts, {
    claims: 'paced',
    handFallbacks: (ids) => fast.dispatch(ids),
  });
  return {
    mode: fast.mode,
    start() {
      fast.start();
      paced.start();
    },
    dispatch(ids) {
      fast.dispatch(ids);
      paced.dispatch(ids);
    },
    async stop() {
      // The paced lane first: its fallback emails still find the fast lane running.
      await paced.stop();
      await fast.stop();
    },
  };
}
