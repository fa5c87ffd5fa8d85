import { expect } from 'chai';
import { formatInr } from '@app/common/format/money';
import { BAR_MS, mergeChartSeries, priceAxis } from '../../client/src/routes/holdings/table/chartData.ts';

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

describe('client: price chart axis', () => {
  const labels = (prices: number[]) => {
    const axis = priceAxis(prices);
    return axis.ticks.map((tick) => formatInr(tick, { fractionDigits: axis.fractionDigits }));
  };

  it('labels a ₹2 range in paise, each tick different (not "₹390" five times)', () => {
    const shown = labels([389.35, 389.9, 390.4, 391.05, 390.8]);
    expect(shown).to.deep.equal(['₹389.00', '₹389.50', '₹390.00', '₹390.50', '₹391.00', '₹391.50']);
    expect(new Set(shown).size).to.equal(shown.length);
  });

  it('labels a 30-paise range to the paisa and a ₹300 range in whole rupees', () => {
    expect(labels([7.12, 7.2, 7.41])).to.deep.equal(['₹7.10', '₹7.20', '₹7.30', '₹7.40', '₹7.50']);
    expect(labels([1410, 1555.4, 1702.3])).to.deep.equal(['₹1,400', '₹1,500', '₹1,600', '₹1,700', '₹1,800']);
  });

  it('covers every price, with 3 to 7 distinct ticks, across ranges from a paisa to lakhs', () => {
    for (const [low, high] of [
      [390, 390],
      [390, 390.01],
      [272.99, 273.37],
      [0.55, 0.61],
      [99.5, 101.25],
      [24_950, 25_010.5],
      [1_20_000, 1_47_000],
    ] as const) {
      const axis = priceAxis([low, (low + high) / 2, high]);
      const shown = axis.ticks.map((tick) => formatInr(tick, { fractionDigits: axis.fractionDigits }));
      expect(new Set(shown).size, `${low}–${high}: ${shown.join(' ')}`).to.equal(shown.length);
      expect(shown.length, `${low}–${high}: ${shown.join(' ')}`).to.be.within(3, 7);
      expect(axis.domain[0]).to.be.at.most(low);
      expect(axis.domain[1]).to.be.at.least(high);
    }
  });
});
