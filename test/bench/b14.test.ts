import { expect } from 'chai';
import { b14 } from '../../bench/benchmarks/b14.ts';
import { expectWellFormed, quickContext } from './helpers.ts';

describe('bench B14 (quick): the single-rule backtest', () => {
  it('backtests 5 years of made bars, previews the default stop over every holding in memory and from the store, and recomputes ATR stops at night', async () => {
    const { results, evidence } = await b14.run(await quickContext());
    expectWellFormed(results, [
      'B14-backtest',
      'B14-backtest-store',
      'B14-preview',
      'B14-preview-store',
      'B14-nightly',
    ]);
    const { nightly } = evidence;
    expect(nightly, 'PostgreSQL is reachable in the tests').to.not.equal(null);
    expect(nightly!.rules, 'every stop recomputed').to.equal(nightly!.size.rules);
    expect(nightly!.agree, 'one rule at a time gives the same levels').to.equal(true);
    const { backtest, size } = evidence;
    expect(backtest.series.length, 'about 5 years of trading days').to.be.within(1200, 1290);
    expect(backtest.to).to.equal(backtest.series[backtest.series.length - 1]!.date);
    expect(backtest.fired.length, 'the stop fires on a random walk').to.be.greaterThan(0);
    expect(evidence.previews).to.have.length(size.previews);
    for (const preview of evidence.previews) {
      expect(preview.holdings).to.equal(size.holdings);
      expect(preview.fired).to.be.greaterThan(0);
    }
    // From the store: every holding read and replayed, none left out.
    const { answer } = evidence.store;
    expect(answer.holdings).to.have.length(size.holdings);
    expect(answer.left_out).to.deep.equal([]);
    expect(answer.totals.fired, 'the stop fires on a random walk').to.be.greaterThan(0);
    // The 5-year backtest read from the store replays the same days at the same closes as the
    // bars in memory (the store keeps 4 decimals; the levels may differ by the ATR's warm-up).
    const single = evidence.store.single.series;
    expect(single.map((d) => d.date)).to.deep.equal(backtest.series.map((d) => d.date));
    single.forEach((d, i) => expect(d.close).to.be.closeTo(backtest.series[i]!.close, 0.0001));
    expect(evidence.store.single.fired.length, 'the stop fires on a random walk').to.be.greaterThan(0);
  });
});
