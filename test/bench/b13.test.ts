import { expect } from 'chai';
import { b13 } from '../../bench/benchmarks/b13.ts';
import { expectWellFormed, quickContext } from './helpers.ts';

describe('bench B13 (quick): feed to phone through the Kite fake', function () {
  this.timeout(300_000);

  it("has every user's push accepted once and decrypted after the crossing tick", async () => {
    const ctx = await quickContext();
    const { results, evidence } = await b13.run(ctx);
    expectWellFormed(results, ['B13-p50', 'B13-p99', 'B13-once']);
    const users = evidence.size.users;
    expect(evidence.pushes).to.include({ accepted: users, doubled: 0, refused: 0, undecryptable: 0 });
    expect(evidence.latencies).to.have.length(users);
    for (const ms of evidence.latencies) expect(ms).to.be.greaterThan(0);
    expect(results.find((r) => r.id === 'B13-once')!.value).to.equal(0);
  });
});
