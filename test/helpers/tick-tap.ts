/**
 * Listens to the tick batches on Redis as a server does (the `market:ticks` channel), recording
 * each with its arrival time: which streamer published what, and when.
 */
import { MARKET_KEYS, type TickBatch } from '@app/common/market/tick-batch';
import { Redis } from 'ioredis';

/** A batch as it arrived on the channel. */
export interface TappedBatch {
  batch: TickBatch;
  receivedAt: number;
}

export interface TickTap {
  batches: TappedBatch[];
  close(): void;
}

/** Subscribes to the ticks channel of `redisUrl`; resolves once subscribed. Re-subscribes after a Redis restart. */
export async function tapTickBatches(redisUrl: string): Promise<TickTap> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  redis.on('error', () => undefined);
  const batches: TappedBatch[] = [];
  redis.on('message', (_channel: string, message: string) => {
    batches.push({ batch: JSON.parse(message) as TickBatch, receivedAt: Date.now() });
  });
  await redis.subscribe(MARKET_KEYS.ticksChannel);
  return { batches, close: () => redis.disconnect() };
}

/** The batch ids a streamer process logged in its `poll cycle` lines. */
export function publishedBatchIds(output: string): string[] {
  return [...output.matchAll(/"batch":"([^"]+)"[^\n]*"poll cycle"/g)].map((m) => m[1]!);
}
