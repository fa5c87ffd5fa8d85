import { expect } from 'chai';
import { b3 } from '../../bench/benchmarks/b3.ts';
import { expectWellFormed, quickContext } from './helpers.ts';

describe('bench B3 (quick): rule evaluation', function () {
  this.timeout(60_000);

  it('indexes every rule and crosses, in its first batch, exactly the rules the SQL baseline finds', async () => {
    const { results, evidence } = await b3.run(await quickContext());
    expectWellFormed(results, ['B3-batch', 'B3-memory']);
    const { size } = evidence;
    expect(evidence.built).to.include({ rules: size.rules, instruments: size.instruments });
    expect(evidence.built.heapPerRule, 'the index takes memory').to.be.greaterThan(0);
    expect(evidence.first.quotes).to.equal(size.instruments);
    expect(evidence.first.crossings, 'the batch crosses some rules').to.be.greaterThan(0);
    expect(evidence.first.moved, 'and raises some trailing peaks').to.be.greaterThan(0);
    expect(evidence.sql).to.include({ queries: size.instruments, crossings: evidence.first.crossings });
    expect(evidence.sameCrossings, 'the same rules as the SQL baseline').to.equal(true);
    expect(evidence.measured).to.have.length(size.batches);
    for (const batch of evidence.measured) expect(batch.quotes).to.equal(size.instruments);
  });
});
