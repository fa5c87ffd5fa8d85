import { expect } from 'chai';
import { SOCKET_ERRORS } from '@app/common/realtime/events';
import {
  FRESH_QUOTE_MS,
  indicatorState,
  isNseSessionOpen,
  newestPrice,
  refusalResponse,
} from '../../client/src/live/marketState.ts';

/** The newest quote: printed at `asOf`, from a source delayed by `delayMinutes`. */
const live = (asOf: number, delayMinutes = 0) => ({ asOf, delayMinutes });

/** An instant given as IST wall-clock time. */
const ist = (iso: string) => Date.parse(`${iso}+05:30`);

describe('client: market state and the live indicator', () => {
  it('renews the session only when the handshake refused the token: an outage is retried, never a sign-out', () => {
    expect(refusalResponse(SOCKET_ERRORS.unauthorized)).to.deep.equal({ renewSession: true, tooMany: false });
    expect(refusalResponse(SOCKET_ERRORS.unavailable), 'database unreachable').to.deep.equal({
      renewSession: false,
      tooMany: false,
    });
    expect(refusalResponse(SOCKET_ERRORS.tooManyConnections)).to.deep.equal({
      renewSession: false,
      tooMany: true,
    });
    expect(refusalResponse('xhr poll error')).to.deep.equal({ renewSession: false, tooMany: false });
  });

  it('knows the NSE session: 09:15 to 15:30 IST, Monday to Friday', () => {
    expect(isNseSessionOpen(ist('2026-08-03T09:14:00'))).to.equal(false); // Monday
    expect(isNseSessionOpen(ist('2026-08-03T09:14:59'))).to.equal(false);
    expect(isNseSessionOpen(ist('2026-08-03T09:15:00'))).to.equal(true);
    expect(isNseSessionOpen(ist('2026-08-03T15:29:59'))).to.equal(true);
    expect(isNseSessionOpen(ist('2026-08-03T15:30:00'))).to.equal(false);
    expect(isNseSessionOpen(ist('2026-08-03T15:31:00'))).to.equal(false);
    expect(isNseSessionOpen(ist('2026-08-08T11:00:00'))).to.equal(false); // Saturday
    expect(isNseSessionOpen(ist('2026-08-09T11:00:00'))).to.equal(false); // Sunday
  });

  it('knows the exchange holidays of the shared calendar', () => {
    expect(isNseSessionOpen(ist('2026-01-26T11:00:00')), 'Republic Day, a Monday').to.equal(false);
    expect(isNseSessionOpen(ist('2026-10-02T11:00:00')), 'Gandhi Jayanti, a Friday').to.equal(false);
    expect(isNseSessionOpen(ist('2026-01-27T11:00:00')), 'the Tuesday after').to.equal(true);
  });

  it("says 'Market closed' on a holiday, with the last trading day's price time", () => {
    expect(indicatorState('live', null, ist('2026-01-26T11:00:00')).label).to.equal('Market closed');
    const state = indicatorState('live', live(ist('2026-01-23T15:30:00')), ist('2026-01-26T11:00:00'));
    expect(state).to.include({ tone: 'closed', label: 'Market closed · last prices 23/01 15:30 IST' });
  });

  it('says Live while quotes are fresh, whatever the clock (the demo market ticks around the clock)', () => {
    const now = ist('2026-08-08T22:00:00');
    expect(indicatorState('live', live(now - 1000), now).label).to.equal('Live');
    expect(indicatorState('live', live(now - FRESH_QUOTE_MS - 1), now).tone).to.equal('closed');
  });

  it("says 'Delayed 15 min' while the newest quotes come from a source 15 minutes late (Yahoo on NSE)", () => {
    const now = ist('2026-08-03T11:00:00');
    // Yahoo prints an NSE trade 15 minutes after it happened: its newest quote is 15 min old.
    const state = indicatorState('live', live(now - 15 * 60_000, 15), now);
    expect(state).to.include({
      tone: 'delayed',
      label: 'Delayed 15 min · as of 10:45 IST',
      short: 'Delayed 15 min',
    });
    expect(state.description).to.contain('15 minutes');
    expect(indicatorState('live', live(now - 60_000, 5), now).label, 'the actual delay').to.equal(
      'Delayed 5 min · as of 10:59 IST',
    );
    expect(indicatorState('live', live(now - 60_000, 0), now).label, 'no delay').to.equal('Live');
  });

  it('says Market closed when even a delayed quote is older than its delay allows', () => {
    const now = ist('2026-08-03T18:45:00');
    const close = ist('2026-08-03T15:30:00');
    expect(indicatorState('live', live(close, 15), now).label).to.equal(
      'Market closed · last prices 15:30 IST',
    );
    const justInside = ist('2026-08-03T11:00:00');
    expect(
      indicatorState('live', live(justInside - 15 * 60_000 - FRESH_QUOTE_MS - 1, 15), justInside).tone,
    ).to.equal('closed');
  });

  it("says 'Market closed · last prices 15:30 IST' after the close", () => {
    const close = ist('2026-08-03T15:30:00');
    const state = indicatorState('live', live(close), ist('2026-08-03T18:45:00'));
    expect(state).to.include({ tone: 'closed', label: 'Market closed · last prices 15:30 IST' });
  });

  it('adds the date when the last price is from an earlier day', () => {
    const state = indicatorState('live', live(ist('2026-08-07T15:30:00')), ist('2026-08-08T10:00:00'));
    expect(state.label).to.equal('Market closed · last prices 07/08 15:30 IST');
  });

  it('says Live in session before the first quote, and Market closed outside it', () => {
    expect(indicatorState('live', null, ist('2026-08-03T10:00:00')).label).to.equal('Live');
    expect(indicatorState('live', null, ist('2026-08-03T20:00:00')).label).to.equal('Market closed');
  });

  it("says 'Simulated prices' whenever the feed is the demo market, at any hour, with or without a price", () => {
    for (const at of [ist('2026-08-04T05:00:00'), ist('2026-08-04T11:00:00'), ist('2026-08-09T22:00:00')]) {
      expect(indicatorState('live', live(at - 1000), at, 'simulated'), 'priced').to.include({
        tone: 'simulated',
        label: 'Simulated prices',
        short: 'Simulated',
      });
      expect(indicatorState('live', null, at, 'simulated').label, 'no price yet').to.equal(
        'Simulated prices',
      );
    }
    expect(indicatorState('live', live(Date.now()), Date.now(), 'yahoo').label).to.equal('Live');
    expect(indicatorState('reconnecting', null, Date.now(), 'simulated').label).to.equal('Reconnecting');
  });

  it('goes by the feed the server describes to every user once it has, else by the quotes held', () => {
    const held = live(ist('2026-08-03T15:30:00'));
    const feed = { source: 'yahoo', asOf: ist('2026-08-04T10:41:00'), delayMinutes: 15 };
    expect(newestPrice(feed, held)).to.deep.equal({ asOf: feed.asOf, delayMinutes: 15 });
    expect(newestPrice({ ...feed, asOf: null }, held)).to.equal(held);
    expect(newestPrice(null, null)).to.equal(null);
    const state = indicatorState('live', newestPrice(feed, null), ist('2026-08-04T10:56:00'), feed.source);
    expect(state.label).to.equal('Delayed 15 min · as of 10:41 IST');
  });

  it('reports the connection when it is not up', () => {
    const now = Date.now();
    expect(indicatorState('connecting', live(now), now).label).to.equal('Connecting');
    expect(indicatorState('reconnecting', live(now), now)).to.include({
      tone: 'pending',
      label: 'Reconnecting',
    });
    expect(indicatorState('offline', live(now), now)).to.include({ tone: 'offline', label: 'Offline' });
  });

  it('says why when the server refused the connection for too many open tabs', () => {
    const now = Date.now();
    expect(indicatorState('too-many', live(now), now)).to.deep.equal({
      tone: 'offline',
      label: 'Too many tabs',
      short: 'Too many tabs',
      description:
        'Live prices paused: Too many open connections for this account (50 at most). Close some tabs and try again.',
    });
  });

  it("says 'Pre-open' from 09:00 to 09:15 IST on a trading day, and on a special session's pre-open", () => {
    const yesterdayClose = ist('2026-08-03T15:30:00');
    expect(indicatorState('live', live(yesterdayClose), ist('2026-08-04T09:05:00'))).to.include({
      tone: 'pending',
      label: 'Pre-open',
    });
    expect(indicatorState('live', null, ist('2026-08-04T09:00:00')).label).to.equal('Pre-open');
    expect(indicatorState('live', null, ist('2026-08-04T08:59:00')).label).to.equal('Market closed');
    expect(indicatorState('live', null, ist('2026-08-04T09:15:00')).label).to.equal('Live');
    // Sunday 1 Feb 2026, the Budget session: pre-open at 09:05, live at 10:00.
    expect(indicatorState('live', null, ist('2026-02-01T09:05:00')).label).to.equal('Pre-open');
    expect(indicatorState('live', null, ist('2026-02-01T10:00:00')).label).to.equal('Live');
    // Not on a holiday.
    expect(indicatorState('live', null, ist('2026-01-26T09:05:00')).label).to.equal('Market closed');
  });
});
