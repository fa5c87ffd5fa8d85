import { expect } from 'chai';
import { NSE_CALENDAR_DATA } from '@app/common/market/calendar-data';
import { createMarketCalendar, isMarketOpen, lastClose, nextOpen } from '@app/common/market/calendar';

/** An IST wall-clock time as an instant. */
const ist = (local: string) => new Date(`${local}+05:30`);

describe('common: NSE/BSE market calendar (IST)', () => {
  it('opens at 09:15:00, not at 09:14 or 09:14:59', () => {
    expect(isMarketOpen(ist('2026-07-13T09:14:00'))).to.equal(false);
    expect(isMarketOpen(ist('2026-07-13T09:14:59.999'))).to.equal(false);
    expect(isMarketOpen(ist('2026-07-13T09:15:00'))).to.equal(true);
  });

  it('closes at 15:30:00: 15:29:59 is open, 15:30 and 15:31 are not', () => {
    expect(isMarketOpen(ist('2026-07-13T15:29:59'))).to.equal(true);
    expect(isMarketOpen(ist('2026-07-13T15:30:00'))).to.equal(false);
    expect(isMarketOpen(ist('2026-07-13T15:31:00'))).to.equal(false);
    expect(isMarketOpen(ist('2026-07-13T18:00:00'))).to.equal(false);
  });

  it('works in IST whatever the instant’s UTC date', () => {
    expect(isMarketOpen(new Date('2026-07-13T03:45:00Z')), '09:15 IST').to.equal(true);
    expect(isMarketOpen(new Date('2026-07-13T03:44:00Z')), '09:14 IST').to.equal(false);
    expect(isMarketOpen(new Date('2026-07-13T09:59:59Z')), '15:29:59 IST').to.equal(true);
    expect(isMarketOpen(new Date('2026-07-13T10:00:00Z')), '15:30 IST').to.equal(false);
    // Sunday 23:00 UTC is Monday 04:30 IST: a weekday, but before the open.
    expect(isMarketOpen(new Date('2026-07-12T23:00:00Z'))).to.equal(false);
    // Friday 19:00 UTC is Saturday 00:30 IST.
    expect(isMarketOpen(new Date('2026-07-17T19:00:00Z'))).to.equal(false);
  });

  it('is closed on weekends', () => {
    expect(isMarketOpen(ist('2026-07-18T11:00:00')), 'Saturday').to.equal(false);
    expect(isMarketOpen(ist('2026-07-19T11:00:00')), 'Sunday').to.equal(false);
  });

  it('is closed all day on each holiday of the data file', () => {
    expect(NSE_CALENDAR_DATA.holidays.filter((h) => h.date.startsWith('2026-'))).to.have.length(16);
    for (const { date } of NSE_CALENDAR_DATA.holidays) {
      expect(isMarketOpen(ist(`${date}T11:00:00`)), date).to.equal(false);
    }
    expect(isMarketOpen(ist('2026-01-26T10:00:00')), 'Republic Day').to.equal(false);
    expect(isMarketOpen(ist('2026-01-27T10:00:00')), 'the day after').to.equal(true);
  });

  it('finds the next open across weekends and holidays', () => {
    expect(nextOpen(ist('2026-07-17T16:00:00'))).to.deep.equal(ist('2026-07-20T09:15:00'));
    expect(nextOpen(ist('2026-07-13T08:00:00'))).to.deep.equal(ist('2026-07-13T09:15:00'));
    // Good Friday (3 Apr) after Thursday's close: Monday.
    expect(nextOpen(ist('2026-04-02T15:30:00'))).to.deep.equal(ist('2026-04-06T09:15:00'));
    // While open, the next open is the next session's.
    expect(nextOpen(ist('2026-07-13T09:15:00'))).to.deep.equal(ist('2026-07-14T09:15:00'));
    // Christmas on a Friday.
    expect(nextOpen(ist('2026-12-24T20:00:00'))).to.deep.equal(ist('2026-12-28T09:15:00'));
  });

  it('finds the last close across weekends and holidays', () => {
    expect(lastClose(ist('2026-07-20T09:00:00'))).to.deep.equal(ist('2026-07-17T15:30:00'));
    expect(lastClose(ist('2026-07-13T15:30:00'))).to.deep.equal(ist('2026-07-13T15:30:00'));
    expect(lastClose(ist('2026-07-13T15:29:59'))).to.deep.equal(ist('2026-07-10T15:30:00'));
    // Monday 26 Jan is a holiday: Tuesday morning's last close is Friday's.
    expect(lastClose(ist('2026-01-27T10:00:00'))).to.deep.equal(ist('2026-01-23T15:30:00'));
  });

  it('builds calendars from other data, with special sessions on closed days', () => {
    const calendar = createMarketCalendar({
      session: { open: '09:15', close: '15:30' },
      years: { '2026': { status: 'complete', source: 'test' } },
      holidays: [{ date: '2026-07-13', name: 'Test holiday' }],
      specialSessions: [{ date: '2026-11-08', open: '18:00', close: '19:00', name: 'Muhurat trading' }],
    });
    expect(calendar.isMarketOpen(ist('2026-07-13T11:00:00'))).to.equal(false);
    expect(calendar.isMarketOpen(ist('2026-11-08T18:30:00'))).to.equal(true);
    expect(calendar.isMarketOpen(ist('2026-11-08T19:00:00'))).to.equal(false);
    expect(calendar.nextOpen(ist('2026-11-07T12:00:00'))).to.deep.equal(ist('2026-11-08T18:00:00'));
    expect(calendar.lastClose(ist('2026-11-09T09:00:00'))).to.deep.equal(ist('2026-11-08T19:00:00'));
  });

  it('rejects malformed calendar data', () => {
    expect(() =>
      createMarketCalendar({ session: { open: '9:15', close: '15:30' }, holidays: [] }),
    ).to.throw();
    expect(() =>
      createMarketCalendar({
        session: { open: '09:15', close: '15:30' },
        holidays: [{ date: '26/01/2026', name: 'Republic Day' }],
      }),
    ).to.throw();
  });
});
