/**
 * The delivery worker (embedded mode, no Redis): polls the outbox for due rows, claims them
 * with `FOR UPDATE SKIP LOCKED`, sends, repeats while there is more. A trigger's commit wakes it
 * at once (`dispatch`); the poll catches retries as they fall due.
 */
import { claimDueDeliveries } from './deliveries.ts';
import { deliver, type DeliveryDeps, type RetryPolicy } from './send.ts';
import type { DeliveryWorker, DeliveryWorkerOptions } from './types.ts';

/** The worker for embedded mode; `start()` runs a first pass at once. */
export function createPollingDeliveryWorker(deps: DeliveryDeps, opts: DeliveryWorkerOptions): DeliveryWorker {
  const policy: RetryPolicy = opts.retry;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let started = false;
  let stopped = false;

  async function drainDue(): Promise<void> {
    do {
      again = false;
      const batch = await claimDueDeliveries(deps.db, opts.batchSize, opts.lockMs);
      const full = batch.length === opts.batchSize;
      const lanes = Array.from({ length: Math.min(opts.concurrency, batch.length) }, async () => {
        for (let job = batch.shift(); job; job = batch.shift())
          await deliver(deps, job, policy, opts.onOutcome);
      });
      await Promise.all(lanes);
      if (full) again = true;
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
