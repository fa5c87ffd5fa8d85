/**
 * Deliveries: the worker that empties the alert outbox (`alert_deliveries`), BullMQ with Redis
 * and database polling without.
 */
import { createQueuedDeliveryWorker } from './queue.ts';
import { DEFAULT_RETRY, type DeliveryDeps } from './send.ts';
import type { DeliveryWorker, DeliveryWorkerOptions } from './types.ts';
import { createPollingDeliveryWorker } from './worker.ts';

export type { DeliveryWorker, DeliveryWorkerOptions } from './types.ts';

/** Tunables of the delivery worker; tests shorten the waits. */
export type DeliveryOverrides = Partial<Omit<DeliveryWorkerOptions, 'retry'>> & {
  retry?: Partial<DeliveryWorkerOptions['retry']>;
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
};

/** The polling worker without Redis, the BullMQ one with it. */
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
  };
  return deps.redis
    ? createQueuedDeliveryWorker(deps, deps.redis, opts)
    : createPollingDeliveryWorker(deps, opts);
}
