/**
 * Who claims crossings and stores tick batches when several server instances share one Redis
 * (issue #18): one instance at a time, the holder of a Redis lease (the streamer's leader lock
 * on a key of its own); the others only observe, so claims and market-data writes are done
 * once per batch, not once per instance. The owner marks each batch finished once its claims
 * have committed and it is stored; an instance that gains the lease finishes, from what it
 * observed, every batch no owner marked (market/pipeline.ts), so a killed owner leaves no
 * crossing unclaimed and no batch unstored. The Postgres claim stays the guard while the lease
 * changes hands. Without Redis the one instance owns every batch.
 */
import { once } from 'node:events';
import { createLeaderLock, type LeaderLock } from '@app/streamer';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** Default lease key; instances of one deployment share it (tests give each database its own). */
export const BATCH_OWNER_KEY = 'market:batch-owner';
/** A lease lapses this long after its holder stops renewing (it renews every third of it). */
export const BATCH_OWNER_TTL_MS = 3000;
/** How long start() waits for Redis before going on without the lease. */
const READY_WAIT_MS = 2000;
/** How long a finished mark is kept: far longer than any owner takes over a batch. */
const FINISHED_TTL_MS = 10 * 60_000;

export interface BatchOwnership {
  /** True while this instance claims and stores the batches. */
  owns(): boolean;
  /** Records that this owner finished `batchId` (claims committed, stored). */
  finished(batchId: string): void;
  /** Of `batchIds`, those no owner marked finished (all of them when Redis cannot answer). */
  unfinished(batchIds: string[]): Promise<string[]>;
  /** Calls `listener` when this instance becomes the owner; returns the unsubscribe function. */
  onGained(listener: () => void): () => void;
  /** Starts; resolves once the first attempt at the lease has settled. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The single instance of embedded mode: owns everything, nothing to mark. */
const SOLE_OWNER: BatchOwnership = {
  owns: () => true,
  finished: () => undefined,
  unfinished: async () => [],
  onGained: () => () => undefined,
  start: async () => undefined,
  stop: async () => undefined,
};

export function createBatchOwnership(opts: {
  redis?: Redis;
  log: Logger;
  key?: string;
  ttlMs?: number;
  /** Every instance claims and stores every batch, the claim deciding who fires (before #18; a baseline). */
  everyInstance?: boolean;
}): BatchOwnership {
  const { redis, log } = opts;
  if (!redis || opts.everyInstance) return SOLE_OWNER;
  const key = opts.key ?? BATCH_OWNER_KEY;
  // Its own connection: a renewal must not wait behind a burst of other commands.
  const connection = redis.duplicate();
  connection.on('error', (err) => log.warn({ err: err.message }, 'batch owner redis error'));
  const lock: LeaderLock = createLeaderLock({
    redis: connection,
    key,
    ttlMs: opts.ttlMs ?? BATCH_OWNER_TTL_MS,
    log,
    name: 'batch owner lease',
  });
  const finishedKey = (batchId: string) => `${key}:finished:${batchId}`;
  return {
    owns: () => lock.isLeader(),
    finished(batchId) {
      redis
        .set(finishedKey(batchId), '1', 'PX', FINISHED_TTL_MS)
        .catch((err: unknown) => log.warn({ err, batchId }, 'could not mark a batch finished'));
    },
    async unfinished(batchIds) {
      if (batchIds.length === 0) return [];
      try {
        const marks = await redis.mget(batchIds.map(finishedKey));
        return batchIds.filter((_, i) => marks[i] === null);
      } catch (err) {
        log.warn({ err }, 'could not read finished batches; treating them as unfinished');
        return batchIds;
      }
    },
    onGained: (listener) => lock.onChange((held) => held && listener()),
    async start() {
      // The first attempt should find the connection up (a Redis that is down delays no start).
      if (connection.status !== 'ready') {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          once(connection, 'ready'),
          new Promise((resolve) => (timer = setTimeout(resolve, READY_WAIT_MS))),
        ]);
        clearTimeout(timer);
      }
      lock.start();
      await lock.ready();
    },
    async stop() {
      await lock.stop();
      connection.disconnect();
    },
  };
}
