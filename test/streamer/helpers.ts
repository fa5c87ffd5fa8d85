/** Shared bits of the streamer tests: a log that records, waiting for a condition, instruments. */
import { MARKET_KEYS } from '@app/common/market/tick-batch';
import type { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import type { WatchedInstrument } from '../../streamer/src/providers/types.ts';

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A pino logger whose lines land in `lines` (parsed), at debug level and up. */
export function captureLog(): { log: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const log = pino(
    { level: 'debug' },
    { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
  );
  return { log, lines };
}

/** Resolves once `condition()` is true; rejects with `what` after `timeoutMs`. */
export async function waitFor(what: string, condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `count` NSE instruments named SYM0001, SYM0002, ... */
export function manyInstruments(count: number): WatchedInstrument[] {
  return Array.from({ length: count }, (_, i) => ({
    symbol: `SYM${String(i + 1).padStart(4, '0')}`,
    exchange: 'NSE' as const,
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
    await delay(10);
  }
}
