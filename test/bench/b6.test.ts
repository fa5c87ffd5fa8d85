import { expect } from 'chai';
import { b6 } from '../../bench/benchmarks/b6.ts';
import { expectWellFormed, quickContext } from './helpers.ts';

describe('bench B6 (quick): the client under tick batches, and its initial JavaScript', function () {
  this.timeout(120_000);

  it('shows every batch in the rows on screen, catches up off-screen rows, and sizes the entry', async () => {
    const { results, evidence } = await b6.run(await quickContext());
    expectWellFormed(results, ['B6-batch', 'B6-initial-js']);
    const { size } = evidence;
    expect(evidence.rowsLoaded).to.equal(size.holdings);
    expect(evidence.batches).to.have.length(size.batches);
    for (const batch of evidence.batches) {
      expect(batch.rows).to.equal(size.holdings);
      expect(batch.rowsInView, 'rows on screen').to.be.greaterThan(0);
      expect(batch.rowsUpdated, 'every row on screen shows the batch').to.equal(batch.rowsInView);
      expect(batch.scriptMs, 'the batch ran script').to.be.greaterThan(0);
    }
    expect(evidence.scrolled.rowsInView).to.be.greaterThan(0);
    expect(evidence.scrolled.rowsUpdated, 'rows scrolled to show the last batch').to.equal(
      evidence.scrolled.rowsInView,
    );
    expect(evidence.initialJs.files.length).to.be.greaterThan(0);
    expect(evidence.initialJs.gzipBytes).to.be.greaterThan(0).and.lessThan(evidence.initialJs.bytes);
  });
});
