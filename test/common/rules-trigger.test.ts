import { expect } from 'chai';
import {
  computeTriggerPrice,
  crossingDirection,
  isCrossed,
  triggerBounds,
  updateTrailingPeak,
} from '../../common/src/rules/trigger.ts';
import type { TriggerType, ValueType } from '../../common/src/rules/types.ts';
import { round2 } from '../../common/src/portfolio/position-math.ts';

describe('rules: trigger math', () => {
  const cases: Array<[TriggerType, ValueType, number, number, number | undefined, number]> = [
    ['FIXED_STOP_LOSS', 'PERCENT', 5, 1000, undefined, 950],
    ['FIXED_STOP_LOSS', 'ABSOLUTE', 50, 1000, undefined, 950],
    ['TRAILING_STOP_LOSS', 'PERCENT', 7, 1000, undefined, 930],
    ['TRAILING_STOP_LOSS', 'PERCENT', 7, 1000, 1200, 1116],
    ['TRAILING_STOP_LOSS', 'ABSOLUTE', 25.5, 1000, 1100, 1074.5],
    ['TAKE_PROFIT', 'PERCENT', 10, 1000, undefined, 1100],
    ['TAKE_PROFIT', 'ABSOLUTE', 125.25, 1000, undefined, 1125.25],
  ];
  for (const [triggerType, valueType, triggerValue, referencePrice, peakPrice, expected] of cases) {
    it(`${triggerType} ${valueType} ${triggerValue} from ${referencePrice}${peakPrice ? ` (peak ${peakPrice})` : ''} → ${expected}`, () => {
      expect(
        computeTriggerPrice({ triggerType, valueType, triggerValue, referencePrice, peakPrice }),
      ).to.equal(expected);
    });
  }

  it('ignores the peak for fixed stops and take profit, and defaults a missing peak to the reference', () => {
    const base = { valueType: 'PERCENT' as const, triggerValue: 10, referencePrice: 200, peakPrice: 500 };
    expect(computeTriggerPrice({ ...base, triggerType: 'FIXED_STOP_LOSS' })).to.equal(180);
    expect(computeTriggerPrice({ ...base, triggerType: 'TAKE_PROFIT' })).to.equal(220);
    expect(computeTriggerPrice({ ...base, triggerType: 'TRAILING_STOP_LOSS', peakPrice: null })).to.equal(
      180,
    );
  });

  it('rounds to 2 decimals, half away from zero, without binary drift', () => {
    expect(round2(1.005)).to.equal(1.01);
    expect(round2(2301.495)).to.equal(2301.5);
    expect(round2(-1.005)).to.equal(-1.01);
    expect(round2(1e-7)).to.equal(0);
    // 2457.35 × 0.93 = 2285.3355
    expect(
      computeTriggerPrice({
        triggerType: 'TRAILING_STOP_LOSS',
        valueType: 'PERCENT',
        triggerValue: 7,
        referencePrice: 2457.35,
      }),
    ).to.equal(2285.34);
    // 333.33 × 0.97 = 323.3301
    expect(
      computeTriggerPrice({
        triggerType: 'FIXED_STOP_LOSS',
        valueType: 'PERCENT',
        triggerValue: 3,
        referencePrice: 333.33,
      }),
    ).to.equal(323.33);
  });

  it('gives a negative or zero level for absolute values at or above the price (the draft check refuses it)', () => {
    const level = computeTriggerPrice({
      triggerType: 'FIXED_STOP_LOSS',
      valueType: 'ABSOLUTE',
      triggerValue: 120,
      referencePrice: 100,
    });
    expect(level).to.equal(-20);
  });

  it('bounds are 10% and 200% of the current price, rounded', () => {
    expect(triggerBounds(2500)).to.deep.equal({ min: 250, max: 5000 });
    expect(triggerBounds(123.45)).to.deep.equal({ min: 12.35, max: 246.9 });
  });

  it('keeps a trailing peak that only rises over a rise-then-fall series, and fires once below the raised level', () => {
    const series = [1000, 1040, 1100, 1080, 1150, 1120, 1071, 1069.5, 1200];
    let peak: number | null = null;
    const levels: number[] = [];
    const fired: number[] = [];
    for (const ltp of series) {
      peak = updateTrailingPeak(peak, ltp);
      const level = computeTriggerPrice({
        triggerType: 'TRAILING_STOP_LOSS',
        valueType: 'PERCENT',
        triggerValue: 7,
        referencePrice: 1000,
        peakPrice: peak,
      });
      levels.push(level);
      if (isCrossed({ triggerType: 'TRAILING_STOP_LOSS', triggerPrice: level }, ltp)) fired.push(ltp);
    }
    expect(levels).to.deep.equal([930, 967.2, 1023, 1023, 1069.5, 1069.5, 1069.5, 1069.5, 1116]);
    expect(fired).to.deep.equal([1069.5]);
    expect(updateTrailingPeak(1150, 900)).to.equal(1150);
    expect(updateTrailingPeak(undefined, 900)).to.equal(900);
  });

  it('crosses stops at or below, take profit and "above" alerts at or above, "below" alerts at or below', () => {
    expect(isCrossed({ triggerType: 'FIXED_STOP_LOSS', triggerPrice: 950 }, 950)).to.equal(true);
    expect(isCrossed({ triggerType: 'FIXED_STOP_LOSS', triggerPrice: 950 }, 950.01)).to.equal(false);
    expect(isCrossed({ triggerType: 'TRAILING_STOP_LOSS', triggerPrice: 950 }, 900)).to.equal(true);
    expect(isCrossed({ triggerType: 'TAKE_PROFIT', triggerPrice: 1100 }, 1100)).to.equal(true);
    expect(isCrossed({ triggerType: 'TAKE_PROFIT', triggerPrice: 1100 }, 1099.99)).to.equal(false);
    expect(isCrossed({ direction: 'above', price: 1600 }, 1600)).to.equal(true);
    expect(isCrossed({ direction: 'above', price: 1600 }, 1599)).to.equal(false);
    expect(isCrossed({ direction: 'below', price: 1600 }, 1599)).to.equal(true);
    expect(isCrossed({ direction: 'below', price: 1600 }, 1601)).to.equal(false);
    expect(crossingDirection({ triggerType: 'TAKE_PROFIT', triggerPrice: 1 })).to.equal('above');
    expect(crossingDirection({ triggerType: 'FIXED_STOP_LOSS', triggerPrice: 1 })).to.equal('below');
  });
});
