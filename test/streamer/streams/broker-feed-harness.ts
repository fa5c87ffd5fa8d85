/**
 * A broker feed run as the streamer runs it (`streamer/src/source.ts`: the configured stream, the
 * fallback polled beside it, tick batches on a memory bus), keeping the feed's `setCredentials`
 * at hand: the operator reconnecting the broker in Settings.
 */
import type { TickBatch } from '@app/common/market/tick-batch';
import { parseConfig } from '@app/config';
import { createMemoryBus } from '../../../streamer/src/bus/memory.ts';
import type { WatchedInstrument } from '../../../streamer/src/providers/types.ts';
import { createProvider } from '../../../streamer/src/providers/index.ts';
import { createStreamingFeed } from '../../../streamer/src/streams/feed.ts';
import {
  createStream,
  credentialsFromEnvironment,
  type StreamSource,
} from '../../../streamer/src/streams/index.ts';
import { captureLog } from '../helpers.ts';

/** Starts the feed `env` configures over `watch`; `stop()` ends it and the bus. */
export async function runBrokerFeed(env: Record<string, string>, watch: WatchedInstrument[]) {
  const config = parseConfig(env, 'streamer');
  const source = config.QUOTE_PROVIDER as StreamSource;
  const { log } = captureLog();
  const bus = createMemoryBus();
  const batches: TickBatch[] = [];
  bus.onBatch((batch) => void batches.push(batch));
  await bus.replaceWatchSet(watch);
  const feed = createStreamingFeed({
    bus,
    stream: createStream(source, config, { log, credentials: credentialsFromEnvironment(source, config) }),
    fallback: createProvider({ ...config, QUOTE_PROVIDER: config.QUOTE_FALLBACK }, { log }),
    batchMs: config.FEED_BATCH_MS,
    intervalMs: config.QUOTE_INTERVAL_MS,
    log,
  });
  feed.start();
  /** The quotes of `symbol` published so far, with their batch's source. */
  const quotesOf = (symbol: string) =>
    batches.flatMap((batch) =>
      batch.quotes.filter((q) => q.symbol === symbol).map((q) => ({ ...q, source: batch.source })),
    );
  return {
    bus,
    batches,
    feed,
    quotesOf,
    async stop() {
      await feed.stop();
      await bus.close();
    },
  };
}
