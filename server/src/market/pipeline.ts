/**
 * What happens to each tick batch on a server: quotes go out to the sockets at once, then
 * the batch is evaluated by the rules engine and persisted. Batches are handled in order,
 * one at a time; a failure is logged and the next batch proceeds.
 */
import type { TickBatch } from '@app/common/market/tick-batch';
import type { MarketBus } from '@app/streamer';
import type { Logger } from 'pino';
import type { Executor } from '../db/client.ts';
import { ingestTickBatch } from './ingest.ts';

export type BatchStage = (batch: TickBatch) => void | Promise<void>;

/** Told of each batch on arrival, and of how long its stages took (metrics). */
export interface PipelineTimings {
  batchReceived(batch: TickBatch, receivedAt: number): void;
  batchEvaluated(seconds: number): void;
}

export interface MarketPipeline {
  /** Resolves when every batch received so far has been handled (tests, shutdown). */
  idle(): Promise<void>;
  stop(): void;
}

export function createMarketPipeline(opts: {
  bus: MarketBus;
  db: Executor;
  log: Logger;
  /** Run right after a batch arrives, before it is persisted (socket fan-out). */
  immediate: BatchStage[];
  /** Run in order after the immediate stages (rules engine). */
  stages: BatchStage[];
  timings?: PipelineTimings;
}): MarketPipeline {
  let chain: Promise<void> = Promise.resolve();
  const handle = async (batch: TickBatch) => {
    const started = performance.now();
    for (const stage of opts.stages) {
      try {
        await stage(batch);
      } catch (err) {
        opts.log.error({ err, batch: batch.id }, 'tick batch stage failed');
      }
    }
    opts.timings?.batchEvaluated((performance.now() - started) / 1000);
    try {
      await ingestTickBatch(opts.db, batch);
    } catch (err) {
      opts.log.error({ err, batch: batch.id }, 'tick batch could not be stored');
    }
  };
  const unsubscribe = opts.bus.onBatch((batch) => {
    opts.timings?.batchReceived(batch, Date.now());
    for (const stage of opts.immediate) {
      try {
        void stage(batch);
      } catch (err) {
        opts.log.error({ err, batch: batch.id }, 'tick batch fan-out failed');
      }
    }
    chain = chain.then(() => handle(batch));
  });
  return { idle: () => chain, stop: unsubscribe };
}
