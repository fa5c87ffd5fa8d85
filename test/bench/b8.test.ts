import { expect } from 'chai';
import { b8 } from '../../bench/benchmarks/b8.ts';
import { b8Size } from '../../bench/benchmarks/b8/size.ts';
import { crashDayBatch } from '../../bench/lib/crash-day.ts';
import { plausibleSymbols } from '../../bench/lib/market.ts';
import { expectWellFormed, quickContext } from './helpers.ts';

describe('bench B8 (quick): crash day', function () {
  // Four runs of one or two server processes: minutes on a loaded 2-core machine.
  this.timeout(600_000);

  it('gives only the crash batch a fall (5–6 %); the batches around it move by 0.2 % at most', () => {
    const symbols = plausibleSymbols(200);
    const calm = crashDayBatch(symbols, 'calm', 1).quotes;
    const crash = crashDayBatch(symbols, 'crash', 0).quotes;
    const after = crashDayBatch(symbols, 'after', 1).quotes;
    for (const [i, q] of crash.entries()) {
      expect(1 - q.ltp / q.prevClose!).to.be.within(0.0495, 0.0605);
      expect(Math.abs(calm[i]!.ltp / q.prevClose! - 1)).to.be.at.most(0.0021);
      expect(after[i]!.ltp / q.ltp - 1).to.be.within(0, 0.0021);
    }
  });

  it('reads its size from the environment for a mid-size run', () => {
    expect(b8Size(false, { B8_SIZE: 'mid', B8_RULES: '60000', B8_INSTANCES: '2' })).to.include({
      rules: 60_000,
      crossings: 12_500,
    });
    expect(b8Size(false, { B8_INSTANCES: '2' }).instances).to.deep.equal([2]);
    expect(() => b8Size(false, { B8_RULES: 'many' })).to.throw('B8_RULES must be a positive integer');
    expect(b8Size(false, {}).paths).to.deep.equal(['set-based', 'baseline']);
    expect(b8Size(false, { B8_PATHS: 'set-based' }).paths).to.deep.equal(['set-based']);
    expect(() => b8Size(false, { B8_PATHS: 'fast' })).to.throw(
      'B8_PATHS must list set-based and/or baseline',
    );
  });

  it('fires every crossing rule once, alerts every socket of its user, emails every outbox row, on one and two instances', async () => {
    const ctx = await quickContext();
    const { results, evidence } = await b8.run(ctx);
    const ids = evidence.size.instances.flatMap((n) =>
      ['lost', 'alert-p99', 'executions', 'emails', 'next-batch', 'loop-p99', 'health'].map(
        (m) => `B8-${m}-${n}`,
      ),
    );
    expectWellFormed(results, [...ids, 'B8-commits']);
    expect(evidence.runs.map((r) => [r.path, r.instances])).to.deep.equal([
      ['set-based', 1],
      ['baseline', 1],
      ['set-based', 2],
      ['baseline', 2],
    ]);
    for (const run of evidence.runs) {
      const name = `${run.path}, ${run.instances}`;
      expect(run.executions, name).to.equal(evidence.plan.crossings);
      expect([run.rulesFired, run.wrongRulesFired], name).to.deep.equal([evidence.plan.crossings, 0]);
      expect(run.executionsMs, name).to.be.a('number');
      expect(run.expectedAlerts, name).to.be.greaterThan(0);
      expect([run.lostAlerts, run.duplicateAlerts, run.unexpectedAlerts], name).to.deep.equal([0, 0, 0]);
      expect(run.alertLatencies, name).to.have.length(run.expectedAlerts);
      expect(run.expectedEmails, name).to.be.greaterThan(0);
      expect(run.emails, name).to.equal(run.expectedEmails);
      expect(run.nextReached, `${name}: the batch after the crash reached every socket`).to.equal(
        run.sockets,
      );
      expect(run.healthChecks, name).to.be.greaterThan(0);
      expect(run.healthFailures, name).to.equal(0);
      expect(run.loop, name).to.have.length(run.instances);
      expect(run.commits, name).to.be.greaterThan(0);
      expect(run.socketsLost, name).to.deep.equal({});
    }
  });
});
