import { expect } from 'chai';
import { b12 } from '../../bench/benchmarks/b12.ts';
import { expectWellFormed, quickContext } from './helpers.ts';

describe('bench B12 (quick): feed to screen through the Kite fake', function () {
  // B1 at its quick size, then the streamer, a server and a few seconds of ticks.
  this.timeout(300_000);

  it('brings every tick sent at the fake to every socket holding its instrument, once', async () => {
    const ctx = await quickContext();
    const { results, evidence } = await b12.run(ctx);
    expectWellFormed(results, ['B12-p50', 'B12-p99', 'B12-cpu', 'B12-once']);
    const { size } = evidence;
    expect(evidence.ticks).to.equal(size.instruments * size.rounds);
    expect(evidence.expected).to.equal(size.sockets * size.perUser * size.rounds);
    expect(evidence).to.include({ received: evidence.expected, lost: 0, doubled: 0 });
    expect(evidence.latencies).to.have.length(evidence.expected);
    for (const ms of evidence.latencies) expect(ms).to.be.greaterThan(0);
    expect(evidence.streamerTicks).to.equal(evidence.ticks);
    expect(evidence.streamerCpuMs).to.be.greaterThan(0);
    expect(results.find((r) => r.id === 'B12-p99')!.baseline).to.equal(evidence.socketP99);
    expect(results.find((r) => r.id === 'B12-once')!.value).to.equal(0);
  });
});
