import { expect } from 'chai';
import { b10, b10Size } from '../../bench/benchmarks/b10.ts';
import { expectWellFormed, quickContext } from './helpers.ts';

describe('bench B10 (quick): one crossing to the phone', function () {
  // B1 at its quick size, then a server process and one crossing batch.
  this.timeout(300_000);

  it('reads its users from the environment', () => {
    expect(b10Size(false, {}).users).to.equal(1000);
    expect(b10Size(false, { B10_USERS: '100' }).users).to.equal(100);
    expect(() => b10Size(false, { B10_USERS: '0' })).to.throw('B10_USERS must be a positive integer');
  });

  it("has every user's push accepted once, decrypted, and reports it beside B1's socket p99", async () => {
    const ctx = await quickContext();
    const { results, evidence } = await b10.run(ctx);
    expectWellFormed(results, ['B10-p50', 'B10-p99', 'B10-once']);
    const users = evidence.size.users;
    expect(evidence.pushes).to.include({ accepted: users, doubled: 0, refused: 0, undecryptable: 0 });
    expect(evidence.latencies).to.have.length(users);
    for (const ms of evidence.latencies) expect(ms).to.be.greaterThan(0);
    expect(evidence.socketP99).to.be.a('number');
    expect(results.find((r) => r.id === 'B10-p99')!.baseline).to.equal(evidence.socketP99);
    expect(results.find((r) => r.id === 'B10-once')!.value).to.equal(0);
  });
});
