import { expect } from 'chai';
import { MARKET_KEYS, type TickBatch } from '@app/common/market/tick-batch';
import { createRedisBus } from '../../streamer/src/bus/redis.ts';
import type { MarketBus } from '../../streamer/src/bus/types.ts';
import { describeBusContract, sampleBatch } from './bus-contract.ts';
import { captureLog, type LogLine, privateRedis, waitFor, waitForSubscribers } from './helpers.ts';

describe('streamer: Redis market bus (private redis-server)', function () {
  const redis = privateRedis();
  const buses: MarketBus[] = [];
  let lines: LogLine[];

  const subscribed = (count: number) => waitForSubscribers(redis.raw, count);
  const newBus = () => {
    const capture = captureLog();
    lines = capture.lines;
    const bus = createRedisBus(redis.server.url, capture.log);
    buses.push(bus);
    return bus;
  };

  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
  });

  describeBusContract(() => ({ bus: newBus(), subscribed }));

  it('publishes a batch and stores nothing beside it (latest prices live in the database)', async () => {
    const bus = newBus();
    const seen: TickBatch[] = [];
    bus.onBatch((batch) => void seen.push(batch));
    await subscribed(1);
    const batch = sampleBatch('1-1', { RELIANCE: 1480.5, TCS: 3250 });
    await bus.publishBatch(batch);
    await waitFor('the batch', () => seen.length === 1);
    expect(seen[0]).to.deep.equal(batch);
    expect(await redis.raw.keys('*')).to.deep.equal([]);
  });

  it('drops (and logs) messages that are not JSON or not tick batches', async () => {
    const bus = newBus();
    const seen: TickBatch[] = [];
    bus.onBatch((batch) => void seen.push(batch));
    await subscribed(1);
    await redis.raw.publish(MARKET_KEYS.ticksChannel, '{not json');
    await redis.raw.publish(MARKET_KEYS.ticksChannel, JSON.stringify({ v: 1, id: 'x', quotes: 'nope' }));
    await bus.publishBatch(sampleBatch('1-1', { SBIN: 960 }));
    await waitFor('the valid batch', () => seen.length === 1);
    expect(seen[0]!.id).to.equal('1-1');
    const dropped = lines.filter((l) => l.msg.startsWith('market bus: dropped'));
    expect(dropped.map((l) => l.msg)).to.deep.equal([
      'market bus: dropped a tick batch that is not JSON',
      'market bus: dropped an invalid tick batch',
    ]);
  });

  it('delivers a published batch without its bad quote, logging that instrument once', async () => {
    const bus = newBus();
    const seen: TickBatch[] = [];
    bus.onBatch((batch) => void seen.push(batch));
    await subscribed(1);
    const bad = { ...sampleBatch('x', { SBIN: 960 }).quotes[0]!, symbol: 'A'.repeat(41) };
    for (const id of ['1-1', '1-2']) {
      const batch = sampleBatch(id, { SBIN: 960, TCS: 3250 });
      await redis.raw.publish(
        MARKET_KEYS.ticksChannel,
        JSON.stringify({ ...batch, quotes: [bad, ...batch.quotes] }),
      );
    }
    await waitFor('both batches', () => seen.length === 2);
    for (const batch of seen) expect(batch.quotes.map((q) => q.symbol)).to.deep.equal(['SBIN', 'TCS']);
    const dropped = lines.filter((l) => l.msg.includes('dropped a quote'));
    expect(dropped).to.have.length(1);
    expect(dropped[0]!.instrument).to.equal(`NSE:"${'A'.repeat(41)}"`);
  });

  it('ignores watch-set members that are not instrument keys', async () => {
    const bus = newBus();
    await redis.raw.sadd(MARKET_KEYS.watchSet, 'NSE:INFY', 'garbage', 'NYSE:IBM');
    expect(await bus.getWatchSet()).to.deep.equal([{ exchange: 'NSE', symbol: 'INFY' }]);
  });

  it('survives a Redis restart: calls fail meanwhile, then the subscription is back by itself', async () => {
    const bus = newBus();
    const seen: string[] = [];
    const receiving: boolean[] = [];
    bus.onBatch((batch) => void seen.push(batch.id));
    bus.onReceivingChange((up) => receiving.push(up));
    await subscribed(1);
    expect(bus.isReceiving()).to.equal(true);
    await redis.server.stop();
    await waitFor('the subscriber to notice', () => receiving.length === 1);
    expect(bus.isReceiving(), 'not receiving while Redis is down').to.equal(false);
    let failed = false;
    await bus.getWatchSet().catch(() => (failed = true));
    expect(failed, 'a call during the outage rejects').to.equal(true);
    await redis.server.start();
    await subscribed(1);
    await bus.publishBatch(sampleBatch('2-1', { SBIN: 960 }));
    await waitFor('a batch after the restart', () => seen.includes('2-1'), 10_000);
    expect(receiving, 'down once, then back').to.deep.equal([false, true]);
    expect(bus.isReceiving()).to.equal(true);
    expect(lines.some((l) => l.msg === 'redis connection lost; reconnecting')).to.equal(true);
  });
});
