import { expect } from 'chai';
import { b2 } from '../../bench/benchmarks/b2.ts';
import { expectWellFormed, quickContext } from './helpers.ts';

describe('bench B2 (quick): sockets per process and memory per socket', function () {
  this.timeout(60_000);

  it('ramps up, delivering every batch to every socket at each step, and measures memory', async () => {
    const { results, evidence } = await b2.run(await quickContext());
    expectWellFormed(results, ['B2-sockets', 'B2-memory', 'B2-memory-socket.io']);
    for (const ramp of [evidence.app, evidence.baseline, evidence.bareSocketIo]) {
      expect(
        ramp.steps.map((s) => s.sockets),
        ramp.stoppedBy,
      ).to.deep.equal(evidence.size.steps);
      for (const step of ramp.steps) {
        expect(step.batches).to.have.length(evidence.size.batches);
        for (const batch of step.batches)
          expect(batch.received, 'every socket got the batch').to.equal(step.sockets);
        expect(Number.isFinite(step.deliveryMs)).to.equal(true);
        expect(step.heapPerSocket, 'a socket costs memory').to.be.greaterThan(0);
      }
    }
    expect(results[1]!.value).to.be.a('number');
    expect(results[2]!.value, 'bare Socket.IO measured at the same step').to.be.a('number');
  });
});
