/**
 * The delivery worker with Redis: a BullMQ queue. A trigger's commit enqueues its outbox rows
 * (jobId = delivery id, so duplicates collapse); a worker claims the row in Postgres before
 * sending (so a job delivered twice sends once); retries are delayed jobs; a sweeper
 * re-enqueues due rows whose job may be lost (an instance killed between commit and enqueue).
 * Stopping waits for the deliveries in flight (they need only PostgreSQL and the mail provider),
 * but not for BullMQ's own bookkeeping when Redis is down: that would wait for Redis forever.
 */
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { settlesWithin } from '../util/settles-within.ts';
import { claimDelivery, overdueDeliveryIds } from './deliveries.ts';
import { deliver, type DeliveryDeps } from './send.ts';
import type { DeliveryWorker, DeliveryWorkerOptions } from './types.ts';

export const DELIVERY_QUEUE = 'alert-deliveries';
/** How long stopping waits for BullMQ to close once our own deliveries are done. */
const CLOSE_WAIT_MS = 3000;

interface DeliveryJobData {
  deliveryId: string;
}

/** The worker for scaled mode, on `redis`; `start()` starts the BullMQ worker and the sweeper. */
export function createQueuedDeliveryWorker(
  deps: DeliveryDeps,
  redis: Redis,
  opts: DeliveryWorkerOptions,
): DeliveryWorker {
  const { log } = deps;
  const queueConnection = redis.duplicate();
  const workerConnection = redis.duplicate({ maxRetriesPerRequest: null });
  for (const c of [queueConnection, workerConnection]) {
    c.on('error', (err) => log.warn({ err: err.message }, 'delivery queue redis error'));
  }
  const queue = new Queue<DeliveryJobData>(DELIVERY_QUEUE, {
    connection: queueConnection,
    prefix: opts.queuePrefix,
    defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
  });
  queue.on('error', (err) => log.warn({ err: err.message }, 'delivery queue error'));

  const enqueue = async (ids: string[], delayMs = 0, suffix = '') => {
    if (ids.length === 0) return;
    await queue.addBulk(
      ids.map((id) => ({
        name: 'deliver',
        data: { deliveryId: id },
        opts: { jobId: `${id}${suffix}`, delay: delayMs },
      })),
    );
  };

  const sendJob = async (job: Job<DeliveryJobData>) => {
    const claimed = await claimDelivery(deps.db, job.data.deliveryId, opts.lockMs);
    if (!claimed) return;
    const outcome = await deliver(deps, claimed, opts.retry, opts.onOutcome);
    // A fresh id per attempt: this job's id is still taken while it runs.
    if (outcome.kind === 'retry') await enqueue([claimed.id], outcome.delayMs, `-retry-${claimed.attempts}`);
  };
  const inFlight = new Set<Promise<void>>();
  const process = (job: Job<DeliveryJobData>) => {
    const sending = sendJob(job);
    inFlight.add(sending);
    const forget = () => void inFlight.delete(sending);
    sending.then(forget, forget);
    return sending;
  };
  const worker = new Worker<DeliveryJobData>(DELIVERY_QUEUE, process, {
    connection: workerConnection,
    prefix: opts.queuePrefix,
    concurrency: opts.concurrency,
    autorun: false,
  });
  worker.on('error', (err) => log.warn({ err: err.message }, 'delivery worker error'));
  worker.on('failed', (job, err) =>
    log.error({ err, job: job?.id }, 'delivery job failed; the sweeper will retry it'),
  );

  let sweeper: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | undefined;
  const sweep = () => {
    sweeping ??= overdueDeliveryIds(deps.db, opts.graceMs, 500)
      .then((ids) => enqueue(ids))
      .catch((err: unknown) => log.warn({ err }, 'delivery sweep failed; will retry'))
      .finally(() => (sweeping = undefined));
  };

  return {
    mode: 'queue',
    start() {
      void worker.run().catch((err: unknown) => log.error({ err }, 'delivery worker stopped'));
      sweeper = setInterval(sweep, opts.sweepMs);
      sweeper.unref();
    },
    dispatch(ids) {
      enqueue(ids).catch((err: unknown) =>
        log.warn({ err, deliveries: ids.length }, 'could not enqueue deliveries; the sweeper will'),
      );
    },
    async stop() {
      clearInterval(sweeper);
      await sweeping;
      // No new jobs from here; the ones running finish.
      const workerClosed = worker.close();
      await Promise.allSettled([...inFlight]);
      const closed = await settlesWithin(
        Promise.all([workerClosed, queue.close()]),
        workerConnection.status === 'ready' ? CLOSE_WAIT_MS : 0,
      );
      if (!closed)
        log.warn('delivery queue closed without Redis (unreachable); the sweeper recovers its jobs');
      queueConnection.disconnect();
      workerConnection.disconnect();
    },
  };
}
