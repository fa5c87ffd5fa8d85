import { expect } from 'chai';
import { b1 } from '../../bench/benchmarks/b1.ts';
import { expectWellFormed, quickContext } from './helpers.ts';

describe('bench B1 (quick): tick batch to socket latency', function () {
  this.timeout(60_000);

  it('delivers every batch to every socket, app and bare ws, with only the user’s instruments', async () => {
    const { results, evidence } = await b1.run(await quickContext());
    expectWellFormed(results, ['B1-p50', 'B1-p99']);
    const { size } = evidence;
    for (const run of [evidence.app, evidence.baseline]) {
      expect(run.sockets).to.equal(size.sockets);
      expect(run.receipts).to.have.length(size.batches);
      for (const batch of run.receipts) {
        expect(batch.latencies, 'every socket got the batch').to.have.length(size.sockets);
        expect([batch.minQuotes, batch.maxQuotes], 'each message has the user’s quotes').to.deep.equal([
          size.perUser,
          size.perUser,
        ]);
      }
      expect(new Set(run.receipts.map((r) => r.at)).size, 'distinct batches').to.equal(size.batches);
    }
  });
});
