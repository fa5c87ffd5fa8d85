/**
 * The owner's market-data writes at a streaming feed's pace (issue #32, docs/live-prices.md#the-server-at-a-feeds-pace):
 * a batch is stored at once when the last write is `everyMs` old or more; a batch that comes
 * sooner is merged with those after it (the latest quote per instrument, every tick in the minute
 * and day bars) and written when that time comes, so half-second batches cost one write every
 * few seconds and a once-a-minute poll is stored as it comes. The stages that read what was
 * stored (Price Guard's first price) run once their batch is written. `idle()` writes what is
 * waiting at once (tests, shutdown).
 */
import type { TickBatch } from '@app/common/market/tick-batch';
import type { Logger } from 'pino';
import type { Executor } from '../db/client.ts';
import { addBatch, emptyWrites, storeWrites, type MarketWrites } from './ingest.ts';

export type StoredStage = (batch: TickBatch) => void | Promise<void>;

export interface PacedStore {
  /** Stores the batch now or with the next write; resolves once it is written or merged. */
  add(batch: TickBatch): Promise<void>;
  /** Writes what waits, now; resolves when every write so far (and its stages) is done. */
  idle(): Promise<void>;
}

export function createPacedStore(opts: {
  db: Executor;
  log: Logger;
  /** The least time between two writes (QUOTE_STORE_MS); 0: every batch at once. */
  everyMs: number;
  /** Run in order after a batch is written, before the next write. */
  afterStore: readonly StoredStage[];
  now?: () => number;
}): PacedStore {
  const { log, everyMs } = opts;
  const now = opts.now ?? (() => performance.now());
  let lastWrite = -Infinity;
  let waiting: { writes: MarketWrites; batches: TickBatch[] } | undefined;
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  async function write(writes: MarketWrites, batches: readonly TickBatch[]): Promise<void> {
    lastWrite = now();
    try {
      await storeWrites(opts.db, writes);
    } catch (err) {
      log.error({ err, batches: batches.map((b) => b.id) }, 'tick batches could not be stored');
    }
    for (const batch of batches)
      for (const stage of opts.afterStore) {
        try {
          await stage(batch);
        } catch (err) {
          log.error({ err, batch: batch.id }, 'tick batch follow-up failed');
        }
      }
  }

  function writeWaiting(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const next = waiting;
    waiting = undefined;
    if (next) writing = writing.then(() => write(next.writes, next.batches));
    return writing;
  }

  return {
    add(batch) {
      if (!waiting && now() - lastWrite >= everyMs) {
        const writes = emptyWrites();
        addBatch(writes, batch);
        writing = writing.then(() => write(writes, [batch]));
        return writing;
      }
      waiting ??= { writes: emptyWrites(), batches: [] };
      addBatch(waiting.writes, batch);
      waiting.batches.push(batch);
      if (!timer) {
        timer = setTimeout(() => void writeWaiting(), Math.max(0, lastWrite + everyMs - now()));
        timer.unref();
      }
      return Promise.resolve();
    },
    idle: writeWaiting,
  };
}
