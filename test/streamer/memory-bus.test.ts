import { expect } from 'chai';
import { BusClosedError, createMemoryBus } from '../../streamer/src/bus/memory.ts';
import type { MarketBus } from '../../streamer/src/bus/types.ts';
import { describeBusContract, sampleBatch } from './bus-contract.ts';
import { captureLog } from './helpers.ts';

describe('streamer: in-process market bus', () => {
  const buses: MarketBus[] = [];
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
  });

  describeBusContract(() => {
    const bus = createMemoryBus(captureLog().log);
    buses.push(bus);
    return { bus, subscribed: async () => undefined };
  });

  it('delivers a copy: a handler mutating its batch does not touch the publisher’s or others’ view', async () => {
    const bus = createMemoryBus();
    buses.push(bus);
    const batch = sampleBatch('1-1', { SBIN: 960 });
    bus.onBatch((received) => {
      received.quotes[0]!.ltp = 1;
    });
    await bus.publishBatch(batch);
    await Promise.resolve();
    expect(batch.quotes[0]!.ltp).to.equal(960);
  });

  it('refuses calls once closed', async () => {
    const bus = createMemoryBus();
    await bus.close();
    let error: unknown;
    await bus.publishBatch(sampleBatch('1-1', { SBIN: 960 })).catch((err: unknown) => (error = err));
    expect(error).to.be.instanceOf(BusClosedError);
  });
});
