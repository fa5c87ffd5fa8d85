/**
 * The delivery worker with Redis: a BullMQ queue. A trigger's commit enqueues its outbox rows
 * (a job per batch of ids, its jobId a hash of them, so a repeated enqueue collapses); a worker
 * claims the job's rows in Postgres before sending (so a job delivered twice sends once), tops
 * the batch up with any other due rows, and hands it to the channels' senders (deliveries/send.ts); retries are delayed jobs; a
 * sweeper re-enqueues due rows whose job may be lost (an instance killed between commit and
 * enqueue).
 * Stopping waits for the deliveries in flight (they need only PostgreSQL and the mail provider),
 * but not for BullMQ's own bookkeeping when Redis is down: that would wait for Redis forever.
 */
import { createHash } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { settlesWithin } from '../util/settles-within.ts';
import { claimDeliveries, claimDueDeliveries, overdueDeliveryIds, type ClaimedDelivery } from './outbox.ts';
import { deliverBatch, type DeliveryDeps } from './send.ts';
import type { DeliveryWorker, DeliveryWorkerOptions } from './types.ts';

export const DELIVERY_QUEUE = 'alert-deliveries';
/** How long stopping waits for BullMQ to close once our own deliveries are done. */
const CLOSE_WAIT_MS = 3000;

interface DeliveryJobData {
  deliveryIds: string[];
  /** A job enqueued before batches (one id each), still in Redis after an upgrade. */
  deliveryId?: string;
}

/** The same ids (in any order) give the same job id, so enqueuing them twice adds one job. */
function jobIdFor(ids: readonly string[], suffix: string): string {
  return `${createHash('sha1')
    .update([...ids].sort().join(','))
    .digest('hex')}${suffix}`;
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
    const unique = [...new Set(ids)];
    const jobs = [];
    for (let i = 0; i < unique.length; i += opts.batchSize) {
      const batch = unique.slice(i, i + opts.batchSize);
      jobs.push({
        name: 'deliver',
        data: { deliveryIds: batch },
        opts: { jobId: jobIdFor(batch, suffix), delay: delayMs },
      });
    }
    if (jobs.length > 0) await queue.addBulk(jobs);
  };

  const sendJob = async (job: Job<DeliveryJobData>) => {
    if (opts.claimsFirst) await settlesWithin(opts.claimsFirst(), opts.claimsWaitMs.fast);
    const ids = job.data.deliveryIds ?? (job.data.deliveryId ? [job.data.deliveryId] : []);
    const batch = await claimDeliveries(deps.db, { ids, lockMs: opts.lockMs });
    // Other due rows ride along (their own jobs then find nothing to do): one provider request
    // carries a whole burst of alerts even when each was enqueued on its own.
    if (batch.length < opts.batchSize) {
      batch.push(
        ...(await claimDueDeliveries(deps.db, {
          limit: opts.batchSize - batch.length,
          lockMs: opts.lockMs,
          lane: 'fast',
        })),
      );
    }
    const outcomes = await deliverBatch(deps, {
      jobs: batch,
      policy: opts.retry,
      onOutcome: opts.onOutcome,
      // Fallback emails written while recording: enqueued like a trigger's rows.
      dispatch: (ids) =>
        void enqueue(ids).catch((err: unknown) =>
          log.warn({ err, deliveries: ids.length }, 'could not enqueue fallback emails; the sweeper will'),
        ),
    });
    // Retries as delayed jobs, one per delay; a fresh id per attempt (this job's id is still taken;
    // a throttled retry gives its attempt back, so the attempt alone may repeat: the time too).
    const retries = new Map<number, ClaimedDelivery[]>();
    outcomes.forEach((outcome, i) => {
      if (outcome.kind !== 'retry') return;
      if (!retries.has(outcome.delayMs)) retries.set(outcome.delayMs, []);
      retries.get(outcome.delayMs)!.push(batch[i]!);
    });
    for (const [delayMs, rows] of retries) {
      const attempts = Math.max(...rows.map((d) => d.attempts));
      await enqueue(
        rows.map((d) => d.id),
        delayMs,
        `-retry-${attempts}-${Date.now()}`,
      );
    }
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
    sweeping ??= overdueDeliveryIds(deps.db, { graceMs: opts.graceMs, limit: 500 })
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
