import { expect } from 'chai';
import { NotEnoughHistoryError, type DailyBar } from '../../common/src/history/bars.ts';
import { backtestRule, WHIPSAW_DAYS, type BacktestRule } from '../../common/src/history/backtest.ts';

/** The i-th trading day of a made series (one a calendar day, from 4 Jan 2021). */
const dayOf = (i: number): string => new Date(Date.UTC(2021, 0, 4 + i)).toISOString().slice(0, 10);

/** Bars from [open, high, low, close] rows; a bare number is a day that traded at one price. */
function series(...rows: Array<number | [number, number, number, number]>): DailyBar[] {
  return rows.map((row, i) => {
    const [open, high, low, close] = typeof row === 'number' ? [row, row, row, row] : row;
    return { date: dayOf(i), open, high, low, close, volume: 1000 };
  });
}

/** A day of range 2 around its close (high close + 1, low close − 1): its true range is 2. */
const calm = (close: number): [number, number, number, number] => [close, close + 1, close - 1, close];

const levels = (r: ReturnType<typeof backtestRule>) => r.series.map((d) => d.level);
const FIXED_10: BacktestRule = { triggerType: 'FIXED_STOP_LOSS', valueType: 'PERCENT', triggerValue: 10 };

describe('history: the single-rule backtest', () => {
  it('starts at the first close of the window: the last `years` years of the bars', () => {
    const bars = series(...Array.from({ length: 800 }, () => 100));
    const last = bars[bars.length - 1]!.date;
    const result = backtestRule(bars, FIXED_10, { years: 1 });
    expect(result.from).to.equal(`${Number(last.slice(0, 4)) - 1}${last.slice(4)}`);
    expect(result.to).to.equal(last);
    expect(result.series[0]).to.deep.equal({ date: result.from, close: 100, level: null });
    expect(result.series).to.have.length(366);
  });

  it('an ATR stop starts at the first close with n days of history', () => {
    const bars = series(calm(100), calm(100), calm(100), calm(100), calm(100));
    const rule: BacktestRule = {
      triggerType: 'FIXED_STOP_LOSS',
      valueType: 'ATR',
      triggerValue: 2,
      atrPeriod: 3,
    };
    const result = backtestRule(bars, rule, { years: 5 });
    expect(result.from).to.equal(dayOf(2));
    expect(levels(result)).to.deep.equal([null, 96, 96]); // 100 − 2 × ATR 2
  });

  it('a fixed stop exits at its level on the day the low reaches it, and stays out', () => {
    const bars = series(100, 100, 100, [95, 96, 89, 92], 80, 85, 95);
    const result = backtestRule(bars, FIXED_10, { years: 1 });
    expect(result.fired).to.deep.equal([{ date: dayOf(3), level: 90, price: 90, gapped: false }]);
    expect(levels(result)).to.deep.equal([null, 90, 90, 90, null, null, null]);
    expect(result.days_out).to.equal(4);
    expect(result.rule_return_percent).to.equal(-10);
    expect(result.hold_return_percent).to.equal(-5);
    expect(result.rule_max_drawdown_percent).to.equal(10);
    expect(result.hold_max_drawdown_percent).to.equal(20); // 100 → 80
    expect(result.whipsaws).to.equal(1); // 95 closes back above 90 three days later
  });

  it('a day that opens below the level exits at the open, told as a gap', () => {
    const result = backtestRule(series(100, [85, 86, 80, 84], 84), FIXED_10, { years: 1 });
    expect(result.fired).to.deep.equal([{ date: dayOf(1), level: 90, price: 85, gapped: true }]);
    expect(result.rule_return_percent).to.equal(-15);
  });

  it('a fixed stop at a price, or in rupees, is tested at that level', () => {
    const bars = series(100, [95, 96, 89, 92], 92);
    const atPrice = backtestRule(
      bars,
      { triggerType: 'FIXED_STOP_LOSS', valueType: 'PRICE', triggerValue: 93 },
      { years: 1 },
    );
    expect(atPrice.fired).to.deep.equal([{ date: dayOf(1), level: 93, price: 93, gapped: false }]);
    const inRupees = backtestRule(
      bars,
      { triggerType: 'FIXED_STOP_LOSS', valueType: 'ABSOLUTE', triggerValue: 10 },
      { years: 1 },
    );
    expect(inRupees.fired).to.deep.equal([{ date: dayOf(1), level: 90, price: 90, gapped: false }]);
  });

  it("a trailing stop raises its peak after the day's check: a day's own high never tests that day", () => {
    const rule: BacktestRule = { triggerType: 'TRAILING_STOP_LOSS', valueType: 'PERCENT', triggerValue: 10 };
    // Day 1 reaches 120 and dips to 95: tested against 90 (from 100), not 108 (from its own high).
    const result = backtestRule(series(100, [100, 120, 95, 118], [115, 116, 107, 110]), rule, { years: 1 });
    expect(levels(result)).to.deep.equal([null, 90, 108]);
    expect(result.fired).to.deep.equal([{ date: dayOf(2), level: 108, price: 108, gapped: false }]);
    expect(result.rule_return_percent).to.equal(8);
    expect(result.hold_return_percent).to.equal(10);
  });

  it('a trailing ATR stop (the chandelier) trails the highest close by k × ATR and never moves down', () => {
    const rule: BacktestRule = {
      triggerType: 'TRAILING_STOP_LOSS',
      valueType: 'ATR',
      triggerValue: 2,
      atrPeriod: 3,
    };
    const bars = series(
      ...[100, 100, 100, 101, 102, 101.5, 101].map(calm), // ATR 2: level 96, then 97, 98 from the closes
      [101, 103, 98.5, 100], // a wide day: ATR 2.83 would put it at 96.33; it stays at 98
      [99, 99.5, 97, 97.5], // reaches 98
    );
    const result = backtestRule(bars, rule, { years: 1 });
    expect(levels(result)).to.deep.equal([null, 96, 97, 98, 98, 98, 98]);
    expect(result.fired).to.deep.equal([{ date: dayOf(8), level: 98, price: 98, gapped: false }]);
  });

  it('a fixed ATR stop stays k × ATR below the close it was armed at', () => {
    const rule: BacktestRule = {
      triggerType: 'FIXED_STOP_LOSS',
      valueType: 'ATR',
      triggerValue: 2,
      atrPeriod: 3,
    };
    const bars = series(...[100, 100, 100, 101, 102, 103].map(calm), [97, 97.5, 95, 95.5]);
    const result = backtestRule(bars, rule, { years: 1 });
    expect(levels(result)).to.deep.equal([null, 96, 96, 96, 96]);
    expect(result.fired).to.deep.equal([{ date: dayOf(6), level: 96, price: 96, gapped: false }]);
  });

  it('a profit target exits when the high reaches it, at the open on a gap up, and has no whipsaws', () => {
    const rule: BacktestRule = { triggerType: 'TAKE_PROFIT', valueType: 'PERCENT', triggerValue: 10 };
    const touched = backtestRule(series(100, [102, 111, 101, 108], 115), rule, { years: 1 });
    expect(touched.fired).to.deep.equal([{ date: dayOf(1), level: 110, price: 110, gapped: false }]);
    expect(touched.rule_return_percent).to.equal(10);
    expect(touched.whipsaws).to.equal(0);
    const gapped = backtestRule(series(100, [112, 115, 111, 114]), rule, { years: 1 });
    expect(gapped.fired).to.deep.equal([{ date: dayOf(1), level: 110, price: 112, gapped: true }]);
    const atPrice = backtestRule(
      series(100, [102, 106, 101, 104]),
      { ...rule, valueType: 'PRICE', triggerValue: 105 },
      { years: 1 },
    );
    expect(atPrice.fired).to.deep.equal([{ date: dayOf(1), level: 105, price: 105, gapped: false }]);
  });

  it('a re-arming stop is back in at its re-arm price, keeps a fixed level, and can fire again', () => {
    const rule: BacktestRule = { ...FIXED_10, rearm: 'after_recovery', rearmPercent: 3 }; // re-arms at 92.70
    const bars = series(
      100,
      [95, 96, 89, 91], // out at 90
      [91, 92, 90, 91.5], // not yet 92.70: still out
      [92, 94, 91, 93.5], // back in at 92.70
      [93, 93, 89.5, 90], // out at 90 again
      95, // opens past 92.70: back in at the open
    );
    const result = backtestRule(bars, rule, { years: 1 });
    expect(result.fired.map((f) => [f.date, f.price])).to.deep.equal([
      [dayOf(1), 90],
      [dayOf(4), 90],
    ]);
    expect(levels(result)).to.deep.equal([null, 90, null, null, 90, null]);
    expect(result.days_out).to.equal(3);
    expect(result.whipsaws).to.equal(2);
    expect(result.rule_return_percent).to.equal(-12.62); // 0.9 × 90 / 92.70 − 1
    expect(result.hold_return_percent).to.equal(-5);
  });

  it('a re-arming trailing stop restarts from the price that re-armed it', () => {
    const rule: BacktestRule = {
      triggerType: 'TRAILING_STOP_LOSS',
      valueType: 'PERCENT',
      triggerValue: 10,
      rearm: 'after_recovery',
      rearmPercent: 3,
    };
    const result = backtestRule(series(100, [100, 100, 89, 90], [92, 93, 92, 92.5], 92.5), rule, {
      years: 1,
    });
    expect(levels(result)).to.deep.equal([null, 90, null, 83.43]); // 10 % below 92.70
  });

  it(`a whipsaw is a close back above the level within ${WHIPSAW_DAYS} trading days, not later`, () => {
    const after = (closeAbove: number) =>
      series(100, [95, 96, 89, 89], ...Array.from({ length: closeAbove - 1 }, () => 89), 91);
    expect(backtestRule(after(WHIPSAW_DAYS), FIXED_10, { years: 1 }).whipsaws).to.equal(1);
    expect(backtestRule(after(WHIPSAW_DAYS + 1), FIXED_10, { years: 1 }).whipsaws).to.equal(0);
  });

  it('without enough history it says how many more days it needs', () => {
    const rule: BacktestRule = {
      triggerType: 'TRAILING_STOP_LOSS',
      valueType: 'ATR',
      triggerValue: 3,
      atrPeriod: 22,
    };
    const bars = series(...Array.from({ length: 10 }, () => calm(100)));
    expect(() => backtestRule(bars, rule, { years: 3 }))
      .to.throw(NotEnoughHistoryError, 'Needs 13 more days of history')
      .with.property('days', 13);
    expect(() => backtestRule(series(100), FIXED_10, { years: 1 })).to.throw('Needs 1 more day of history');
  });
});
