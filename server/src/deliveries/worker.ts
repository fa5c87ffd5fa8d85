/**
 * The delivery worker (embedded mode, no Redis): polls the outbox for due rows, claims a batch
 * with `FOR UPDATE SKIP LOCKED`, sends it as one batch, repeats while there is more (several
 * batches at once when the outbox is full). A trigger's commit wakes it at once (`dispatch`);
 * the poll catches retries as they fall due.
 */
import { claimDueDeliveries, type ClaimedDelivery } from './outbox.ts';
import { deliverBatch, type DeliveryDeps, type RetryPolicy } from './send.ts';
import type { DeliveryWorker, DeliveryWorkerOptions } from './types.ts';

/** The worker for embedded mode; `start()` runs a first pass at once. */
export function createPollingDeliveryWorker(deps: DeliveryDeps, opts: DeliveryWorkerOptions): DeliveryWorker {
  const policy: RetryPolicy = opts.retry;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let started = false;
  let stopped = false;

  const claim = () => claimDueDeliveries(deps.db, { limit: opts.batchSize, lockMs: opts.lockMs });

  /** Sends batches until one comes back short (the outbox is empty for now). */
  async function lane(first: ClaimedDelivery[]): Promise<void> {
    for (let batch = first; ; batch = await claim()) {
      if (batch.length > 0)
        await deliverBatch(deps, { jobs: batch, policy, onOutcome: opts.onOutcome, dispatch: () => kick() });
      if (batch.length < opts.batchSize || stopped) return;
    }
  }

  async function drainDue(): Promise<void> {
    do {
      again = false;
      await opts.claimsFirst?.();
      const first = await claim();
      // A full first batch means more are due: more lanes, each claiming its own batches.
      const lanes = [lane(first)];
      if (first.length === opts.batchSize) {
        for (let i = 1; i < opts.concurrency; i++) lanes.push(claim().then(lane));
      }
      await Promise.all(lanes);
    } while (again && !stopped);
  }

  function schedule(): void {
    clearTimeout(timer);
    if (stopped || !started) return;
    timer = setTimeout(kick, opts.pollMs);
    timer.unref();
  }

  function kick(): void {
    if (stopped || !started) return;
    if (running) {
      again = true;
      return;
    }
    running = drainDue()
      .catch((err: unknown) => deps.log.error({ err }, 'delivery worker cycle failed; will retry'))
      .finally(() => {
        running = undefined;
        schedule();
      });
  }

  return {
    mode: 'poll',
    start() {
      started = true;
      kick();
    },
    dispatch: () => kick(),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
