/**
 * Replay files, the simulated market's input (`REPLAY_FILE`; the format of
 * streamer/src/providers/replay.ts: `time,symbol,exchange,price,prev_close`, one batch per
 * `time`, played in order and looped).
 */
import type { Exchange } from '@app/common/instruments/types';

/** One quote of a replay file. */
export interface ReplayQuote {
  /** The batch it belongs to: rows with the same time are published together. */
  time: string | number;
  symbol: string;
  /** NSE unless given. */
  exchange?: Exchange;
  price: number;
  prevClose: number;
}

export function replayFile(quotes: readonly ReplayQuote[]): string {
  const rows = quotes.map((q) => `${q.time},${q.symbol},${q.exchange ?? 'NSE'},${q.price},${q.prevClose}`);
  return `${['time,symbol,exchange,price,prev_close', ...rows].join('\n')}\n`;
}

/** A replay file of one batch per entry, each `{SYMBOL: price}` on NSE against a previous close of 1000. */
export function replayBatches(batches: ReadonlyArray<Record<string, number>>): string {
  return replayFile(
    batches.flatMap((prices, i) =>
      Object.entries(prices).map(([symbol, price]) => ({ time: i + 1, symbol, price, prevClose: 1000 })),
    ),
  );
}
