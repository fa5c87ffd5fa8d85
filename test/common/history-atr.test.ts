import { expect } from 'chai';
import { trueRange, wilderAtr } from '../../common/src/history/atr.ts';
import { atrBefore, atrStopLevel, atrStopReason, raiseAtrStop } from '../../common/src/history/atr-stop.ts';
import { NotEnoughHistoryError, type DailyBar } from '../../common/src/history/bars.ts';

const bar = (date: string, high: number, low: number, close: number): DailyBar => ({
  date,
  open: close,
  high,
  low,
  close,
  volume: 1000,
});

// StockCharts ChartSchool's ATR worksheet ("Average True Range (ATR)", cs-atr.xls): QQQQ, 14
// days, its published TR and ATR columns (the same table pins the ATR of the Python `ta` library).
const STOCKCHARTS: Array<[string, number, number, number, number, number | null]> = [
  ['2010-04-01', 48.7, 47.79, 48.16, 0.91, null],
  ['2010-04-05', 48.72, 48.14, 48.61, 0.58, null],
  ['2010-04-06', 48.9, 48.39, 48.75, 0.51, null],
  ['2010-04-07', 48.87, 48.37, 48.63, 0.5, null],
  ['2010-04-08', 48.82, 48.24, 48.74, 0.58, null],
  ['2010-04-09', 49.05, 48.635, 49.03, 0.415, null],
  ['2010-04-12', 49.2, 48.94, 49.07, 0.26, null],
  ['2010-04-13', 49.35, 48.86, 49.32, 0.49, null],
  ['2010-04-14', 49.92, 49.5, 49.91, 0.6, null],
  ['2010-04-15', 50.19, 49.87, 50.13, 0.32, null],
  ['2010-04-16', 50.12, 49.2, 49.53, 0.93, null],
  ['2010-04-19', 49.66, 48.9, 49.5, 0.76, null],
  ['2010-04-20', 49.88, 49.43, 49.75, 0.45, null],
  ['2010-04-21', 50.19, 49.725, 50.03, 0.465, 0.555],
  ['2010-04-22', 50.36, 49.26, 50.31, 1.1, 0.5939285714],
  ['2010-04-23', 50.57, 50.09, 50.52, 0.48, 0.5857908163],
  ['2010-04-26', 50.65, 50.3, 50.41, 0.35, 0.5689486152],
  ['2010-04-27', 50.43, 49.21, 49.34, 1.22, 0.6154522855],
  ['2010-04-28', 49.63, 48.98, 49.37, 0.65, 0.6179199794],
  ['2010-04-29', 50.33, 49.61, 50.23, 0.96, 0.6423542666],
  ['2010-04-30', 50.29, 49.2, 49.2375, 1.09, 0.6743289618],
  ['2010-05-03', 50.17, 49.43, 49.93, 0.9325, 0.6927697503],
  ['2010-05-04', 49.32, 48.08, 48.43, 1.85, 0.7754290538],
  ['2010-05-05', 48.5, 47.64, 48.18, 0.86, 0.7814698357],
  ['2010-05-06', 48.3201, 41.55, 46.57, 6.7701, 1.209229133],
  ['2010-05-07', 46.8, 44.2833, 45.41, 2.5167, 1.302619909],
  ['2010-05-10', 47.8, 47.31, 47.77, 2.39, 1.380289916],
  ['2010-05-11', 48.39, 47.2, 47.72, 1.19, 1.366697779],
  ['2010-05-12', 48.66, 47.9, 48.62, 0.94, 1.336219366],
  ['2010-05-13', 48.79, 47.7301, 47.85, 1.0599, 1.316482269],
];

describe("history: true range and Wilder's ATR", () => {
  it('a hand-computed ATR(2): the first bar high − low, a gap counted, then smoothed by 1/n', () => {
    const bars = [
      bar('2026-01-01', 10, 8, 9), // TR 2 (no previous close)
      bar('2026-01-02', 12, 9.5, 11), // TR 12 − 9 = 3 (the previous close is below the low)
      bar('2026-01-05', 10, 9, 9.5), // gap down: TR 11 − 9 = 2
      bar('2026-01-06', 9.8, 9.6, 9.7), // TR 9.8 − 9.5 = 0.3
    ];
    [2, 3, 2, 0.3].forEach((tr, i) =>
      expect(trueRange(bars[i]!, bars[i - 1]?.close)).to.be.closeTo(tr, 1e-12),
    );
    const atr = wilderAtr(bars, 2);
    expect(atr[0]).to.equal(undefined);
    expect(atr[1]).to.equal(2.5); // (2 + 3) / 2
    expect(atr[2]).to.equal(2.25); // (2.5 · 1 + 2) / 2
    expect(atr[3]).to.be.closeTo(1.275, 1e-12); // (2.25 · 1 + 0.3) / 2
  });

  it("matches StockCharts' published ATR(14) worksheet, TR by TR and ATR by ATR", () => {
    const bars = STOCKCHARTS.map(([date, high, low, close]) => bar(date, high, low, close));
    const atr = wilderAtr(bars, 14);
    STOCKCHARTS.forEach(([date, , , , tr, published], i) => {
      expect(trueRange(bars[i]!, bars[i - 1]?.close), `TR on ${date}`).to.be.closeTo(tr, 1e-9);
      if (published === null) expect(atr[i], `ATR on ${date}`).to.equal(undefined);
      else expect(atr[i], `ATR on ${date}`).to.be.closeTo(published, 1e-8);
    });
  });

  it('refuses a period that is not a whole number of days', () => {
    expect(() => wilderAtr([], 0)).to.throw(RangeError);
    expect(() => wilderAtr([], 2.5)).to.throw(RangeError);
  });
});

describe('history: ATR stop levels and their reason', () => {
  it('sits k × ATR below its base, to the paisa, and says so in rupees', () => {
    expect(atrStopLevel(2520, 28.0667, 3)).to.equal(2435.8);
    expect(atrStopReason({ multiple: 3, period: 22, atr: 28.0667, base: 2520, trailing: true })).to.equal(
      '3 × ATR(22) = ₹84.20 below the high of ₹2,520.00',
    );
    expect(atrStopReason({ multiple: 2.5, period: 14, atr: 40, base: 1250, trailing: false })).to.equal(
      '2.5 × ATR(14) = ₹100.00 below the price of ₹1,250.00 when it was set',
    );
  });

  it('a trailing ATR stop rises with a higher close and never moves down', () => {
    const first = raiseAtrStop(null, 100, 2, 3);
    expect(first).to.equal(94);
    expect(raiseAtrStop(first, 104, 2, 3)).to.equal(98); // a new high close lifts it
    expect(raiseAtrStop(98, 104, 5, 3)).to.equal(98); // a wider ATR does not lower it
  });

  it('uses only the bars before today: the day still trading never moves the ATR', () => {
    const bars = STOCKCHARTS.map(([date, high, low, close]) => bar(date, high, low, close));
    const before = atrBefore(bars, 14, '2010-05-06');
    expect(before.asOf).to.equal('2010-05-05');
    expect(before.atr).to.be.closeTo(0.7814698357, 1e-8); // not the crash day's 1.209…
  });

  it('without n bars before today it says how many more days it needs', () => {
    const bars = STOCKCHARTS.slice(0, 12).map(([date, high, low, close]) => bar(date, high, low, close));
    expect(() => atrBefore(bars, 14, '2010-05-01'))
      .to.throw(NotEnoughHistoryError, 'Needs 2 more days of history')
      .with.property('days', 2);
    expect(() => atrBefore(bars, 12, '2010-04-19')).to.throw('Needs 1 more day of history');
  });
});
