/**
 * B12's and B13's market: the tests' fake Kite ticker (test/helpers/fake-brokers/kite-ticker.ts,
 * Kite's frames byte for byte) listing the bench's symbols, and the streamer in its own process
 * (streamer-child.ts) with `QUOTE_PROVIDER=kite` against it, publishing on the Redis bus as in
 * production. The bench sends the ticks; the streamer subscribes what the servers' watch set holds.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { instrumentKey } from '@app/common/market/tick-batch';
import { startFakeKiteTicker, type FakeKiteTicker } from '../../test/helpers/fake-brokers/kite-ticker.ts';
import { startChild, type BenchChild } from './child.ts';
import { sleep } from './stats.ts';
import type { StreamerEnv } from './streamer-child.ts';

export interface KiteFeed {
  fake: FakeKiteTicker;
  /** Kite's instrument token of symbol `i` (NSE). */
  tokens: number[];
  streamer: BenchChild;
  /** Resolves once the streamer's connections carry `count` instruments in full mode. */
  subscribed(count: number, timeoutMs?: number): Promise<void>;
  /** The streamer process's CPU time so far (ms). */
  cpuMs(): Promise<number>;
  /** Ticks sent to the streamer's connections so far (a packet each, in the fake's frames). */
  ticksSent(): number;
  close(): Promise<void>;
}

/** One instrument's tick: symbol index, price and previous close (rupees). */
export interface FeedTick {
  index: number;
  ltp: number;
  prevClose: number;
}

export async function startKiteFeed(
  symbols: readonly string[],
  redisUrl: string,
  batchMs: number,
): Promise<KiteFeed> {
  const fake = await startFakeKiteTicker();
  const tokens = fake
    .addInstruments(symbols.map((symbol, i) => ({ symbol, exchange: 'NSE', exchangeToken: 10_000 + i })))
    .map((i) => i.token);
  // The fallback, while the stream is not yet live: a replay of one price of an instrument no one
  // holds, so no made-up price reaches the rules or the sockets (the simulated market's would, and
  // could fire a stop before the bench's tick does) and nothing goes to the internet.
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-kite-'));
  const replay = path.join(dir, 'fallback.csv');
  writeFileSync(replay, 'time,symbol,exchange,price\n09:15,BENCHNOBODY,NSE,100\n');
  const streamer = startChild('streamer-child.ts');
  try {
    await streamer.call('start', {
      REDIS_URL: redisUrl,
      QUOTE_PROVIDER: 'kite',
      QUOTE_FALLBACK: 'replay',
      REPLAY_FILE: replay,
      FEED_BATCH_MS: String(batchMs),
      KITE_API_KEY: fake.apiKey,
      KITE_API_URL: fake.url,
      KITE_WS_URL: fake.wsUrl,
      KITE_ACCESS_TOKEN: fake.accessToken,
    } satisfies StreamerEnv);
  } catch (err) {
    await streamer.stop();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    fake,
    tokens,
    streamer,
    async subscribed(count, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      const full = () =>
        fake
          .connections()
          .reduce((n, c) => n + [...c.subscribed.values()].filter((m) => m === 'full').length, 0);
      while (full() < count) {
        if (Date.now() > deadline)
          throw new Error(`the streamer subscribed ${full()} of ${count} instruments in full mode`);
        await sleep(100);
      }
    },
    cpuMs: () => streamer.call<number>('cpuMs'),
    ticksSent: () => fake.packetsSent,
    async close() {
      await streamer.stop();
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Sends these ticks at the fake in one call (a frame per connection); returns when it was sent. */
export function sendTicks(feed: KiteFeed, ticks: readonly FeedTick[]): number {
  const exchangeTime = Date.now();
  feed.fake.tick(
    ticks.map((t) => ({ token: feed.tokens[t.index]!, ltp: t.ltp, close: t.prevClose, exchangeTime })),
  );
  return Date.now();
}

/** The key a socket's quote is recognised by: the instrument and its price. */
export const quoteKey = (symbol: string, ltp: number) => `${instrumentKey('NSE', symbol)}@${ltp}`;
