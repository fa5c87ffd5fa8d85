import { expect } from 'chai';
import { MARKET_KEYS, type TickBatch } from '@app/common/market/tick-batch';
import { closeRedisConnection, createRedisConnection } from '../../streamer/src/bus/connection.ts';
import { createRedisBus } from '../../streamer/src/bus/redis.ts';
import type { MarketBus } from '../../streamer/src/bus/types.ts';
import { createLeaderLock } from '../../streamer/src/leader.ts';
import { createSimulatedProvider } from '../../streamer/src/providers/simulated.ts';
import type { QuoteProvider } from '../../streamer/src/providers/types.ts';
import { createStreamer } from '../../streamer/src/streamer.ts';
import { captureLog, sleep, flatQuotes, privateRedis, waitFor, waitForSubscribers } from './helpers.ts';

const INTERVAL_MS = 100;
const TTL_MS = 300;

/** Records when it was called; quotes every instrument at ₹10. */
function timedProvider(name: string) {
  const calls: number[] = [];
  const provider: QuoteProvider = {
    name,
    maxSymbolsPerRequest: 100,
    async getQuotes(instruments) {
      calls.push(Date.now());
      return flatQuotes(instruments);
    },
  };
  return { provider, calls };
}

describe('streamer: leader election on Redis (private redis-server)', function () {
  const redis = privateRedis();
  let cleanup: Array<() => Promise<void>>;

  beforeEach(async () => {
    await redis.raw.sadd(MARKET_KEYS.watchSet, 'NSE:RELIANCE', 'NSE:TCS');
    cleanup = [];
  });
  afterEach(async () => {
    for (const fn of cleanup.reverse()) await fn();
  });

  /** A streamer process: its own bus, lock connection and lock. */
  function streamerProcess(provider: QuoteProvider) {
    const { log, lines } = captureLog();
    const bus = createRedisBus(redis.server.url, log);
    const lockConnection = createRedisConnection(redis.server.url, log, 'leader');
    const leader = createLeaderLock({ redis: lockConnection, ttlMs: TTL_MS, log });
    const streamer = createStreamer({ bus, provider, intervalMs: INTERVAL_MS, log, leader });
    cleanup.push(async () => {
      await streamer.stop();
      await bus.close();
      await closeRedisConnection(lockConnection, log);
    });
    return { streamer, bus, leader, lockConnection, lines };
  }

  function subscriberOf(): { bus: MarketBus; batches: TickBatch[] } {
    const bus = createRedisBus(redis.server.url, captureLog().log);
    const batches: TickBatch[] = [];
    bus.onBatch((batch) => void batches.push(batch));
    cleanup.push(() => bus.close());
    return { bus, batches };
  }

  it('lets only one of two streamers poll', async () => {
    const a = timedProvider('a');
    const b = timedProvider('b');
    const pa = streamerProcess(a.provider);
    const pb = streamerProcess(b.provider);
    pa.streamer.start();
    pb.streamer.start();
    await waitFor('five polls', () => a.calls.length + b.calls.length >= 5);
    await sleep(3 * INTERVAL_MS);
    expect(
      [a.calls.length, b.calls.length].filter((n) => n > 0),
      'exactly one polled',
    ).to.have.length(1);
    const leaderToken = await redis.raw.get(MARKET_KEYS.leaderLock);
    expect(leaderToken).to.equal(a.calls.length > 0 ? pa.leader.token : pb.leader.token);
  });

  it('hands over when the leader crashes (stops renewing without releasing)', async () => {
    const a = timedProvider('a');
    const b = timedProvider('b');
    const pa = streamerProcess(a.provider);
    pa.streamer.start();
    await waitFor('the first leader polls', () => a.calls.length >= 2);
    const pb = streamerProcess(b.provider);
    pb.streamer.start();
    await sleep(2 * TTL_MS);
    expect(b.calls, 'the standby waits').to.have.length(0);

    const crashedAt = Date.now();
    pa.lockConnection.disconnect(); // the crash: no renewal, no release
    await waitFor('the standby to take over', () => b.calls.length > 0, 5000);
    const tookOverIn = b.calls[0]! - crashedAt;
    // Design bound: ttl + ttl/3 (lock expiry + one standby retry), plus one cycle.
    expect(tookOverIn).to.be.below(2 * TTL_MS + 2 * INTERVAL_MS + 1000);
    expect(a.calls.at(-1)!, 'the old leader stopped polling before the new one began').to.be.below(
      b.calls[0]!,
    );
    const polledByA = a.calls.length;
    await sleep(3 * INTERVAL_MS);
    expect(a.calls).to.have.length(polledByA);
    expect(await redis.raw.get(MARKET_KEYS.leaderLock)).to.equal(pb.leader.token);
  });

  it('releases the lock on stop so the standby takes over at once', async () => {
    const a = timedProvider('a');
    const b = timedProvider('b');
    const pa = streamerProcess(a.provider);
    pa.streamer.start();
    await waitFor('the first leader polls', () => a.calls.length >= 1);
    const pb = streamerProcess(b.provider);
    pb.streamer.start();
    await pa.streamer.stop();
    expect(await redis.raw.get(MARKET_KEYS.leaderLock)).to.not.equal(pa.leader.token);
    await waitFor('the standby to take over', () => b.calls.length > 0, 5000);
  });

  it('keeps running through a Redis restart and publishes again afterwards', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    cleanup.push(async () => void process.off('unhandledRejection', onUnhandled));

    const p = streamerProcess(createSimulatedProvider());
    const subscriber = subscriberOf();
    await waitForSubscribers(redis.raw, 1);
    p.streamer.start();
    await waitFor('batches before the restart', () => subscriber.batches.length >= 2, 5000);

    await redis.server.stop();
    await sleep(500);
    await redis.server.start();
    const countAtRestart = subscriber.batches.length;
    // Redis lost everything; the server's watch-set keeper re-seeds it (here: the test).
    await waitFor('redis back', () => redis.raw.status === 'ready', 10_000);
    await redis.raw.sadd(MARKET_KEYS.watchSet, 'NSE:RELIANCE');

    await waitFor('batches after the restart', () => subscriber.batches.length >= countAtRestart + 2, 15_000);
    expect(subscriber.batches.at(-1)!.quotes.map((q) => q.symbol)).to.include('RELIANCE');
    expect(await redis.raw.get(MARKET_KEYS.leaderLock)).to.equal(p.leader.token);
    expect(unhandled).to.deep.equal([]);
  });
});
