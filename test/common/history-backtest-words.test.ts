import { expect } from 'chai';
import { backtestSentence } from '../../common/src/history/backtest-words.ts';

const firing = { date: '2025-01-02', level: 90, price: 90, gapped: false };

describe('backtestSentence: the backtest in one line', () => {
  it('counts firings and whipsaws of a stop and compares its result with holding', () => {
    const result = {
      from: '2023-11-27',
      to: '2026-11-26',
      fired: [firing, firing, firing, firing],
      whipsaws: 3,
      rule_return_percent: -8.14,
      hold_return_percent: 22.4,
    };
    expect(backtestSentence(result, { years: 3, stop: true })).to.equal(
      "Over 3 years: fired 4 times, 3 whipsaws; the stop's result -8.1% against holding +22.4%",
    );
  });

  it('says once, never, and a target without whipsaws, and since when a short history starts', () => {
    const base = { to: '2026-11-26', whipsaws: 0, rule_return_percent: 5, hold_return_percent: 5 };
    expect(
      backtestSentence({ ...base, from: '2025-11-26', fired: [firing] }, { years: 1, stop: true }),
    ).to.equal("Over 1 year: fired once, no whipsaws; the stop's result +5.0% against holding +5.0%");
    expect(backtestSentence({ ...base, from: '2026-03-04', fired: [] }, { years: 5, stop: false })).to.equal(
      "Since 04/03/2026: never fired; the target's result +5.0% against holding +5.0%",
    );
  });
});
