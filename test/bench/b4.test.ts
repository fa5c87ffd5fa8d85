import { expect } from 'chai';
import { b4 } from '../../bench/benchmarks/b4.ts';
import { expectWellFormed, quickContext } from './helpers.ts';

describe('bench B4 (quick): GET /api/holdings under load', function () {
  this.timeout(60_000);

  it('loads the 200-holding list and the bare route with no failed request', async () => {
    const { results, evidence } = await b4.run(await quickContext());
    expectWellFormed(results, ['B4-throughput', 'B4-p99']);
    expect(evidence.holdingsListed).to.equal(evidence.size.holdings);
    for (const run of [evidence.app, evidence.baseline]) {
      expect(run.requests, 'requests answered').to.be.greaterThan(0);
      expect(run.failures, 'non-2xx, errors, timeouts').to.equal(0);
    }
  });
});
