import { expect } from 'chai';
import { b7 } from '../../bench/benchmarks/b7.ts';
import { expectWellFormed, quickContext } from './helpers.ts';

describe('bench B7 (quick): cold start of npm start', function () {
  // start.mjs rebuilds the client when its sources are newer than the build; that run is redone.
  this.timeout(240_000);

  it('starts `npm start` on a fresh DATA_DIR until /api/health answers', async () => {
    const { results, evidence } = await b7.run(await quickContext());
    expectWellFormed(results, ['B7']);
    expect(evidence.runs).to.have.length(1);
    expect(evidence.runs[0]).to.include({ healthStatus: 200, createdDatabase: true });
  });
});
