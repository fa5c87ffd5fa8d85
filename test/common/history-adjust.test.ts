/** adjustBars (common/src/history/adjust.ts): split and bonus adjustment of daily bars, pure. */
import { expect } from 'chai';
import { adjustBars } from '../../common/src/history/adjust.ts';
import type { DailyBar } from '../../common/src/history/bars.ts';

const bar = (date: string, close: number, volume = 10): DailyBar => ({
  date,
  open: close,
  high: close,
  low: close,
  close,
  volume,
});

describe('adjustBars: prices before an ex-date divided by its ratio, volumes multiplied', () => {
  const bars = [
    bar('2025-01-01', 1000),
    bar('2025-01-02', 1000),
    bar('2025-01-03', 500),
    bar('2025-01-06', 100),
  ];

  it('leaves the ex-date and later days as printed; several actions compound', () => {
    const out = adjustBars(bars, [
      { exDate: '2025-01-06', ratio: 5 },
      { exDate: '2025-01-03', ratio: 2 },
    ]);
    expect(out.map((b) => [b.date, b.close, b.volume])).to.deep.equal([
      ['2025-01-01', 100, 100],
      ['2025-01-02', 100, 100],
      ['2025-01-03', 100, 50],
      ['2025-01-06', 100, 10],
    ]);
  });

  it('ignores actions after the last bar or before the first, and never changes its input', () => {
    const before = structuredClone(bars);
    expect(adjustBars(bars, [{ exDate: '2025-02-01', ratio: 2 }]).map((b) => b.close)).to.deep.equal([
      500, 500, 250, 50,
    ]);
    expect(adjustBars(bars, [{ exDate: '2024-12-01', ratio: 2 }])).to.deep.equal(bars);
    expect(bars).to.deep.equal(before);
  });

  it('keeps four decimals: ₹10.05 before a 1:1 bonus is ₹5.025', () => {
    const [first] = adjustBars([bar('2025-01-01', 10.05, 3)], [{ exDate: '2025-01-02', ratio: 2 }]);
    expect(first).to.deep.equal({
      date: '2025-01-01',
      open: 5.025,
      high: 5.025,
      low: 5.025,
      close: 5.025,
      volume: 6,
    });
  });
});
