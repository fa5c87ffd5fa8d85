/**
 * The owner's market-data writes at a streaming feed's pace (issue #32, docs/live-prices.md#the-server-at-a-feeds-pace):
 * a batch is stored at once when the last write is `everyMs` old or more; a batch that comes
 * sooner is merged with those after it (the latest quote per instrument, every tick in the minute
 * and day bars) and written when that time comes, so half-second batches cost one write every
 * few seconds and a once-a-minute poll is stored as it comes. A batch with the first price of an
 * instrument is written at once, with what waits: a holding or a rule just added needs its price
 * in the store (a rule is refused without one). The stages that read what was
 * stored (Price Guard's first price) run once their batch is written. `idle()` writes what is
 * waiting at once (tests, shutdown).
 */
import { instrumentKey, type TickBatch } from '@app/common/market/tick-batch';
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
  /** The instruments written so far (the watch set's size: every instrument stored once at least). */
  const written = new Set<string>();

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
    if (!next) return writing;
    for (const key of next.writes.quotes.keys()) written.add(key);
    writing = writing.then(() => write(next.writes, next.batches));
    return writing;
  }

  return {
    add(batch) {
      const due = !waiting && now() - lastWrite >= everyMs;
      const firstPrice = batch.quotes.some((q) => !written.has(instrumentKey(q.exchange, q.symbol)));
      waiting ??= { writes: emptyWrites(), batches: [] };
      addBatch(waiting.writes, batch);
      waiting.batches.push(batch);
      if (due || firstPrice) return writeWaiting();
      if (!timer) {
        timer = setTimeout(() => void writeWaiting(), Math.max(0, lastWrite + everyMs - now()));
        timer.unref();
      }
      return Promise.resolve();
    },
    idle: writeWaiting,
  };
}
