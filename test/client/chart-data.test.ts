import { expect } from 'chai';
import { BAR_MS, mergeChartSeries } from '../../client/src/routes/holdings/table/chartData.ts';

const MIN = BAR_MS['1m'];

describe('client: price chart series', () => {
  it('shows the bars before the first live price, then the live prices', () => {
    const bars = [
      { t: 0, close: 10 },
      { t: MIN, close: 11 },
      { t: 2 * MIN, close: 11.6 },
    ];
    const live = [
      { t: 2 * MIN + 5_000, ltp: 11.2 },
      { t: 2 * MIN + 35_000, ltp: 11.6 },
    ];
    expect(mergeChartSeries(bars, live, MIN)).to.deep.equal([
      { t: 0, price: 10 },
      { t: MIN, price: 11 },
      { t: 2 * MIN + 5_000, price: 11.2 },
      { t: 2 * MIN + 35_000, price: 11.6 },
    ]);
  });

  it('shows every bar before any live price, and the live prices alone without bars', () => {
    expect(mergeChartSeries([{ t: 0, close: 5 }], [], MIN)).to.deep.equal([{ t: 0, price: 5 }]);
    expect(mergeChartSeries([], [{ t: 5, ltp: 1 }])).to.deep.equal([{ t: 5, price: 1 }]);
  });

  it('leaves out the daily bar of the day the live prices belong to', () => {
    const day = BAR_MS['1d'];
    const bars = [
      { t: 0, close: 100 },
      { t: day, close: 104 },
    ];
    expect(mergeChartSeries(bars, [{ t: day + 3_600_000, ltp: 103 }], day)).to.deep.equal([
      { t: 0, price: 100 },
      { t: day + 3_600_000, price: 103 },
    ]);
  });
});
