/**
 * A rule's last check as the Holdings rows and Manage Rules show it ("₹2,410.50 · 3.2% away ·
 * checked 10:41 IST"): the server's until a newer live quote, "Not checked yet" without one,
 * nothing for a rule that is off; and Manage Rules' nearest-to-firing order.
 */
import type { ApiPositionRule } from '@app/common/api/rules';
import { expect } from 'chai';
import {
  checkParts,
  distanceText,
  lastCheck,
  sortRules,
} from '../../client/src/routes/holdings/rules/ruleView.ts';

const CHECKED = '2026-03-10T05:11:00.000Z'; // 10:41 IST
type Checked = Pick<
  ApiPositionRule,
  'status' | 'trigger_type' | 'last_price' | 'last_checked_at' | 'distance_percent'
>;
const rule = (over: Partial<Checked> = {}): Checked => ({
  status: 'ACTIVE',
  trigger_type: 'TRAILING_STOP_LOSS',
  last_price: 2410.5,
  last_checked_at: CHECKED,
  distance_percent: 3.17,
  ...over,
});

describe('client: the last check of a rule', () => {
  const sameDay = Date.parse('2026-03-10T09:00:00.000Z');

  it('words the server’s check, with the time in IST and the date when it was not today', () => {
    const check = lastCheck(rule(), undefined, 2334);
    expect(check).to.deep.equal({ price: 2410.5, checkedAt: Date.parse(CHECKED), distance: 3.17 });
    expect(checkParts('ACTIVE', check, sameDay)).to.deep.equal([
      '₹2,410.50',
      '3.2% away',
      'checked 10:41 IST',
    ]);
    expect(checkParts('ACTIVE', check, Date.parse('2026-03-11T04:00:00.000Z'))).to.deep.equal([
      '₹2,410.50',
      '3.2% away',
      'checked 10/03/2026 10:41 IST',
    ]);
  });

  it('takes a newer live quote and measures it against the live level; ignores older or stale ones', () => {
    const later = Date.parse(CHECKED) + 60_000;
    expect(lastCheck(rule(), { ltp: 2400, asOf: later }, 2334)).to.deep.equal({
      price: 2400,
      checkedAt: later,
      distance: 2.75,
    });
    expect(lastCheck(rule(), { ltp: 2400, asOf: later - 120_000 }, 2334)!.price).to.equal(2410.5);
    expect(lastCheck(rule(), { ltp: 2400, asOf: later, stale: true }, 2334)!.price).to.equal(2410.5);
    // Before the first server check, the first live quote is the check.
    const unchecked = rule({ last_price: null, last_checked_at: null, distance_percent: null });
    expect(lastCheck(unchecked, { ltp: 1000, asOf: later }, 930)!.distance).to.equal(7);
  });

  it('says "Not checked yet" without a quote, and nothing for a rule that is off', () => {
    const none = rule({ last_price: null, last_checked_at: null, distance_percent: null });
    expect(checkParts('ACTIVE', lastCheck(none, undefined, 930))).to.deep.equal(['Not checked yet']);
    const off = rule({ status: 'INACTIVE', last_price: null, last_checked_at: null, distance_percent: null });
    expect(lastCheck(off, { ltp: 1000, asOf: Date.now() }, 930)).to.equal(null);
    expect(checkParts('INACTIVE', null)).to.equal(null);
    expect(checkParts('TRIGGERED', null)).to.equal(null);
  });

  it('words the distance: away, at the level, past it; two decimals under 1 %', () => {
    expect(distanceText(3.17)).to.equal('3.2% away');
    expect(distanceText(0.04)).to.equal('0.04% away');
    expect(distanceText(0)).to.equal('at the level');
    expect(distanceText(-1.5)).to.equal('1.5% past the level');
  });

  it('orders Manage Rules by symbol, or nearest to firing first with unchecked rules last', () => {
    const rules = [
      { symbol: 'TCS', created_at: '1', d: 9 },
      { symbol: 'INFY', created_at: '2', d: null },
      { symbol: 'ITC', created_at: '3', d: 1.2 },
      { symbol: 'SBIN', created_at: '4', d: -0.5 },
    ];
    const symbols = (order: 'symbol' | 'distance') =>
      sortRules(rules, order, (r) => r.d).map((r) => r.symbol);
    expect(symbols('symbol')).to.deep.equal(['INFY', 'ITC', 'SBIN', 'TCS']);
    expect(symbols('distance')).to.deep.equal(['SBIN', 'ITC', 'TCS', 'INFY']);
  });
});
