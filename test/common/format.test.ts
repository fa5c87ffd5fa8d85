import { expect } from 'chai';
import {
  formatCompactInr,
  formatInr,
  formatIstDate,
  formatIstDateTime,
  formatIstTime,
  formatPercent,
  formatSignedInr,
} from '../../common/src/format/index.ts';

describe('format: rupees', () => {
  it('groups digits the Indian way with two decimals', () => {
    expect(formatInr(12345678.9)).to.equal('₹1,23,45,678.90');
    expect(formatInr(0)).to.equal('₹0.00');
    expect(formatInr(999.999)).to.equal('₹1,000.00');
    expect(formatInr(100000)).to.equal('₹1,00,000.00');
  });

  it('puts a minus in front of the rupee sign for negatives', () => {
    expect(formatInr(-1234.5)).to.equal('-₹1,234.50');
  });

  it('does not print a negative zero', () => {
    expect(formatInr(-0)).to.equal('₹0.00');
    expect(formatInr(-0.001)).to.equal('₹0.00');
  });

  it('honours a different number of fraction digits', () => {
    expect(formatInr(2500.4, { fractionDigits: 0 })).to.equal('₹2,500');
  });

  it('prints a dash for values that are not finite numbers', () => {
    expect(formatInr(Number.NaN)).to.equal('—');
    expect(formatInr(Number.POSITIVE_INFINITY)).to.equal('—');
  });

  it('signs gains and losses', () => {
    expect(formatSignedInr(1250)).to.equal('+₹1,250.00');
    expect(formatSignedInr(0), 'no change has no sign').to.equal('₹0.00');
    expect(formatSignedInr(-0.004)).to.equal('₹0.00');
    expect(formatSignedInr(0.004)).to.equal('₹0.00');
    expect(formatSignedInr(0.01)).to.equal('+₹0.01');
    expect(formatSignedInr(-80.5)).to.equal('-₹80.50');
    expect(formatSignedInr(Number.NaN)).to.equal('—');
  });

  it('shortens to lakhs and crores', () => {
    expect(formatCompactInr(123456)).to.equal('₹1.23 L');
    expect(formatCompactInr(45600000)).to.equal('₹4.56 Cr');
    expect(formatCompactInr(-250000)).to.equal('-₹2.50 L');
    expect(formatCompactInr(123456789012)).to.equal('₹12,345.68 Cr');
  });

  it('moves up a unit when rounding reaches it', () => {
    expect(formatCompactInr(9999999)).to.equal('₹1.00 Cr');
    expect(formatCompactInr(99999.999)).to.equal('₹1.00 L');
  });

  it('prints amounts under a lakh in full', () => {
    expect(formatCompactInr(45678)).to.equal('₹45,678.00');
    expect(formatCompactInr(-12.5)).to.equal('-₹12.50');
  });
});

describe('format: percent', () => {
  it('rounds to two decimals', () => {
    expect(formatPercent(12.345)).to.equal('12.35%');
    expect(formatPercent(-3.1)).to.equal('-3.10%');
    expect(formatPercent(0)).to.equal('0.00%');
  });

  it('adds a plus sign to non-negative values when asked', () => {
    expect(formatPercent(3, { signed: true })).to.equal('+3.00%');
    expect(formatPercent(0, { signed: true }), 'no change has no sign').to.equal('0.00%');
    expect(formatPercent(-0.001, { signed: true })).to.equal('0.00%');
    expect(formatPercent(0.001, { signed: true })).to.equal('0.00%');
    expect(formatPercent(-7, { signed: true })).to.equal('-7.00%');
  });

  it('honours fraction digits and rejects non-finite values', () => {
    expect(formatPercent(7, { fractionDigits: 0 })).to.equal('7%');
    expect(formatPercent(Number.NaN)).to.equal('—');
  });
});

describe('format: India Standard Time', () => {
  // 2026-11-22 08:35:09 UTC is 14:05:09 in Kolkata (UTC+05:30).
  const instant = Date.UTC(2026, 10, 22, 8, 35, 9);

  it('prints date and time separated by a comma, 24-hour', () => {
    expect(formatIstDateTime(new Date(instant))).to.equal('22/11/2026, 14:05:09');
    const [date, time] = formatIstDateTime(instant).split(', ');
    expect(date).to.equal('22/11/2026');
    expect(time).to.equal('14:05:09');
  });

  it('accepts ISO strings and epoch milliseconds', () => {
    expect(formatIstDateTime('2026-11-22T08:35:09.000Z')).to.equal('22/11/2026, 14:05:09');
    expect(formatIstDateTime(instant)).to.equal('22/11/2026, 14:05:09');
  });

  it('crosses the date line into the next IST day', () => {
    expect(formatIstDateTime('2026-03-31T18:30:00Z')).to.equal('01/04/2026, 00:00:00');
  });

  it('prints midnight as 00 and afternoon in 24-hour form', () => {
    expect(formatIstTime('2026-01-14T18:30:00Z')).to.equal('00:00:00');
    expect(formatIstTime('2026-01-14T10:15:30Z')).to.equal('15:45:30');
    expect(formatIstTime('2026-01-14T10:15:30Z', { seconds: false })).to.equal('15:45');
  });

  it('prints the IST calendar date', () => {
    expect(formatIstDate('2026-01-14T20:00:00Z')).to.equal('15/01/2026');
  });

  it('prints a dash for invalid input', () => {
    expect(formatIstDateTime('not a date')).to.equal('—');
    expect(formatIstDate(Number.NaN)).to.equal('—');
    expect(formatIstTime(new Date('x'))).to.equal('—');
  });
});
