/** Shared bits of the streamer tests: a log that records, waiting for a condition, instruments, quotes. */
import { MARKET_KEYS, type Quote } from '@app/common/market/tick-batch';
import { Redis } from 'ioredis';
import type { WatchedInstrument } from '../../streamer/src/providers/types.ts';
import { startRedisServer, type RedisServer } from '../helpers/services.ts';
import { sleep } from '../helpers/wait.ts';

export { sleep, waitFor } from '../helpers/wait.ts';
export { captureLog, type LogLine } from '../helpers/log.ts';

/** `count` NSE instruments named SYM0001, SYM0002, ... */
export function manyInstruments(count: number): WatchedInstrument[] {
  return Array.from({ length: count }, (_, i) => ({
    symbol: `SYM${String(i + 1).padStart(4, '0')}`,
    exchange: 'NSE' as const,
  }));
}

/** A quote of each instrument at ₹10, unchanged from its previous close (what a test provider answers). */
export function flatQuotes(instruments: readonly WatchedInstrument[]): Quote[] {
  return instruments.map((i) => ({
    ...i,
    ltp: 10,
    prevClose: 10,
    change: 0,
    changePercent: 0,
    asOf: 1,
    delayMinutes: 0,
  }));
}

/** Resolves once `count` connections subscribe to the ticks channel of the Redis behind `raw`. */
export async function waitForSubscribers(raw: Redis, count: number, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await raw
      .pubsub('NUMSUB', MARKET_KEYS.ticksChannel)
      .catch(() => [MARKET_KEYS.ticksChannel, 0]);
    const live = Number((reply as [string, number])[1]);
    if (live >= count) return;
    if (Date.now() > deadline) throw new Error(`only ${live} subscriber(s) after ${timeoutMs} ms`);
    await sleep(10);
  }
}

/**
 * Called in a `describe`: a private redis-server for its tests and a raw client on it, emptied
 * before each test.
 */
export function privateRedis(): { server: RedisServer; raw: Redis } {
  let server: RedisServer | undefined;
  let raw: Redis | undefined;
  before(async () => {
    server = await startRedisServer();
    raw = new Redis(server.url, { maxRetriesPerRequest: 1 });
    raw.on('error', () => undefined);
  });
  after(async () => {
    raw?.disconnect();
    await server?.stop();
  });
  beforeEach(async () => {
    await raw!.flushall();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined)
      throw new Error('the private redis-server is not started yet (use it inside a test or hook)');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get raw() {
      return started(raw);
    },
  };
}
