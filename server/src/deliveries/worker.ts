/**
 * The polling delivery worker: polls the outbox for a lane's due rows, claims a batch with `FOR
 * UPDATE SKIP LOCKED`, sends it as one batch, repeats while there is more (several batches at
 * once when the outbox is full). A trigger's commit wakes it at once (`dispatch`); the poll
 * catches retries as they fall due. Embedded mode runs one per lane; with Redis, the paced lane's
 * (deliveries/index.ts).
 */
import { claimDueDeliveries, type ClaimedDelivery, type DeliveryLane } from './outbox.ts';
import { settlesWithin } from '../util/settles-within.ts';
import { deliverBatch, type DeliveryDeps, type RetryPolicy } from './send.ts';
import type { DeliveryWorker, DeliveryWorkerOptions } from './types.ts';

/** Which rows a polling worker takes, and where the fallback emails it writes go. */
export interface PollingLane {
  claims: DeliveryLane;
  /** The fast lane's worker, for a paced lane's fallback emails; none: this worker sends them. */
  handFallbacks?: (deliveryIds: string[]) => void;
}

/** A polling worker of one lane; `start()` runs a first pass at once. */
export function createPollingDeliveryWorker(
  deps: DeliveryDeps,
  opts: DeliveryWorkerOptions,
  { claims, handFallbacks }: PollingLane = { claims: 'fast' },
): DeliveryWorker {
  const policy: RetryPolicy = opts.retry;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let started = false;
  let stopped = false;

  const claim = () =>
    claimDueDeliveries(deps.db, { limit: opts.batchSize, lockMs: opts.lockMs, lane: claims });
  const dispatch = handFallbacks ?? (() => kick());

  /** Sends batches until one comes back short (the outbox is empty for now). */
  async function sendUntilShort(first: ClaimedDelivery[]): Promise<void> {
    for (let batch = first; ; batch = await claim()) {
      if (batch.length > 0)
        await deliverBatch(deps, { jobs: batch, policy, onOutcome: opts.onOutcome, dispatch });
      if (batch.length < opts.batchSize || stopped) return;
    }
  }

  async function drainDue(): Promise<void> {
    do {
      again = false;
      if (opts.claimsFirst) await settlesWithin(opts.claimsFirst(), opts.claimsWaitMs[claims]);
      const first = await claim();
      // A full first batch means more are due: more lanes, each claiming its own batches.
      const lanes = [sendUntilShort(first)];
      if (first.length === opts.batchSize) {
        for (let i = 1; i < opts.concurrency; i++) lanes.push(claim().then(sendUntilShort));
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
