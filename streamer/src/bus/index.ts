/** The market bus: one interface, a Redis and an in-process implementation. */
export type { BatchHandler, FeedState, MarketBus, WatchedInstrument } from './types.ts';
export { createRedisBus } from './redis.ts';
export { createMemoryBus, BusClosedError } from './memory.ts';
export { createRedisConnection, closeRedisConnection } from './connection.ts';
export { guardUnhandledRejections } from './rejections.ts';
