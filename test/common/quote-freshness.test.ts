import { expect } from 'chai';
import { yahooSymbol } from '../../common/src/instruments/yahoo.ts';
import { freshnessLimitMs, isQuoteTooOld } from '../../common/src/market/quote-freshness.ts';

const MIN = 60_000;

describe('common: how old a quote may be, and Yahoo tickers', () => {
  it('allows a quote its delay plus the grace, counted from the session open at the latest', () => {
    const now = Date.parse('2026-08-03T11:00:00+05:30');
    const graceMs = 2 * MIN;
    expect(freshnessLimitMs(15, graceMs)).to.equal(17 * MIN);
    expect(isQuoteTooOld({ asOf: now - 17 * MIN, delayMinutes: 15 }, { now, graceMs })).to.equal(false);
    expect(isQuoteTooOld({ asOf: now - 17 * MIN - 1, delayMinutes: 15 }, { now, graceMs })).to.equal(true);
    expect(isQuoteTooOld({ asOf: now - 3 * MIN, delayMinutes: 0 }, { now, graceMs })).to.equal(true);
    // Yesterday's close, 10 minutes into today's session: not yet too old.
    const open = Date.parse('2026-08-03T09:15:00+05:30');
    const yesterday = Date.parse('2026-07-31T15:30:00+05:30');
    const at = open + 10 * MIN;
    expect(
      isQuoteTooOld({ asOf: yesterday, delayMinutes: 15 }, { now: at, graceMs, sessionOpenedAt: open }),
    ).to.equal(false);
    expect(
      isQuoteTooOld(
        { asOf: yesterday, delayMinutes: 15 },
        { now: open + 18 * MIN, graceMs, sessionOpenedAt: open },
      ),
    ).to.equal(true);
  });

  it('spells an NSE Emerge (SME) stock SYMBOL-SM.NS, and the others as before', () => {
    expect(yahooSymbol('SIMCA', 'NSE', { kind: 'SME' })).to.equal('SIMCA-SM.NS');
    expect(yahooSymbol('TCS', 'NSE', { kind: 'EQUITY' })).to.equal('TCS.NS');
    expect(yahooSymbol('NIFTYBEES', 'NSE', { kind: 'ETF' })).to.equal('NIFTYBEES.NS');
    expect(yahooSymbol('TCS', 'BSE')).to.equal('TCS.BO');
  });
});
