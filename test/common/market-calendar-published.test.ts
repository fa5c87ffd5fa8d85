/**
 * The shipped calendar against the exchanges' published lists, written out here independently
 * of the data file: NSE's Capital Market holiday circulars for 2025 (14 weekday holidays; the
 * same days as exchange_calendars' exchange_calendar_xbom.py for BSE) and 2026 (NSE/CMTR/71775,
 * 15 days, plus 15 Jan from NSE/CMTR/72260), the Budget-day weekend sessions (Sat 1 Feb 2025,
 * Sun 1 Feb 2026, NSE/CMTR/72349) and Muhurat trading 2025 (21 Oct, 13:45–14:45, pre-open 13:30).
 */
import { expect } from 'chai';
import { createMarketCalendar, marketStatusAt, nseCalendar } from '@app/common/market/calendar';

/** An IST wall-clock time as an instant. */
const ist = (local: string) => new Date(`${local}+05:30`);

const PUBLISHED_2025 = [
  '2025-02-26', // Mahashivratri
  '2025-03-14', // Holi
  '2025-03-31', // Id-Ul-Fitr
  '2025-04-10', // Shri Mahavir Jayanti
  '2025-04-14', // Dr. Baba Saheb Ambedkar Jayanti
  '2025-04-18', // Good Friday
  '2025-05-01', // Maharashtra Day
  '2025-08-15', // Independence Day
  '2025-08-27', // Ganesh Chaturthi
  '2025-10-02', // Mahatma Gandhi Jayanti/Dussehra
  '2025-10-21', // Diwali Laxmi Pujan (Muhurat trading in the afternoon)
  '2025-10-22', // Diwali-Balipratipada
  '2025-11-05', // Prakash Gurpurb Sri Guru Nanak Dev
  '2025-12-25', // Christmas
];
const PUBLISHED_2026 = [
  '2026-01-15', // Municipal Corporation Election, Maharashtra (NSE/CMTR/72260)
  '2026-01-26',
  '2026-03-03',
  '2026-03-26',
  '2026-03-31',
  '2026-04-03',
  '2026-04-14',
  '2026-05-01',
  '2026-05-28',
  '2026-06-26',
  '2026-09-14',
  '2026-10-02',
  '2026-10-20',
  '2026-11-10',
  '2026-11-24',
  '2026-12-25',
];

describe('common: the market calendar against the published exchange lists', () => {
  it('reads every published 2025 and 2026 holiday as closed, all day', () => {
    for (const day of [...PUBLISHED_2025, ...PUBLISHED_2026]) {
      for (const time of ['09:05', '10:00', '12:00', '15:29']) {
        const at = ist(`${day}T${time}:00`);
        if (day === '2025-10-21' && time !== '09:05' && time !== '10:00') continue; // Muhurat afternoon
        expect(nseCalendar.isMarketOpen(at), `${day} ${time}`).to.equal(false);
        expect(nseCalendar.sessionAt(at), `${day} ${time}`).to.not.equal('regular');
      }
    }
  });

  it('lists exactly the published holidays for 2025 and 2026, each year complete with its source', () => {
    for (const [year, published] of [
      [2025, PUBLISHED_2025],
      [2026, PUBLISHED_2026],
    ] as const) {
      const info = nseCalendar.yearInfo(year);
      expect(
        info.holidays.map((h) => h.date),
        String(year),
      ).to.deep.equal(published);
      expect(info).to.include({ status: 'complete', complete: true });
      expect(info.source).to.match(/NSE/);
      for (const h of info.holidays) expect(h.name, h.date).to.be.a('string').and.not.equal('');
    }
  });

  it('26 Feb 2025 (Mahashivratri) is closed and the next open is 27 Feb', () => {
    expect(nseCalendar.isMarketOpen(ist('2025-02-26T10:00:00'))).to.equal(false);
    expect(nseCalendar.nextOpen(ist('2025-02-26T10:00:00'))).to.deep.equal(ist('2025-02-27T09:15:00'));
  });

  it('trades on the Budget-day weekends: Saturday 1 Feb 2025 and Sunday 1 Feb 2026, full sessions', () => {
    for (const day of ['2025-02-01', '2026-02-01']) {
      expect(marketStatusAt(nseCalendar, ist(`${day}T10:00:00`)), day).to.include({
        open: true,
        session: 'special',
      });
      expect(nseCalendar.sessionAt(ist(`${day}T09:05:00`)), `${day} pre-open`).to.equal('pre_open');
      expect(nseCalendar.isMarketOpen(ist(`${day}T15:29:00`)), `${day} 15:29`).to.equal(true);
      expect(nseCalendar.isMarketOpen(ist(`${day}T15:30:00`)), `${day} 15:30`).to.equal(false);
    }
    // Friday 30 Jan 2026 after the close: the next open is Sunday's Budget session.
    expect(nseCalendar.nextOpen(ist('2026-01-30T16:00:00'))).to.deep.equal(ist('2026-02-01T09:15:00'));
    // The Saturday and Sunday around them stay shut.
    expect(nseCalendar.isMarketOpen(ist('2026-01-31T10:00:00'))).to.equal(false);
    expect(nseCalendar.isMarketOpen(ist('2025-02-02T10:00:00'))).to.equal(false);
  });

  it('Muhurat trading 21 Oct 2025: special 13:45–14:45 after a 13:30 pre-open, closed in the morning', () => {
    expect(marketStatusAt(nseCalendar, ist('2025-10-21T10:00:00'))).to.deep.equal({
      open: false,
      session: null,
      nextOpen: ist('2025-10-21T13:45:00'),
      complete: true,
    });
    expect(nseCalendar.sessionAt(ist('2025-10-21T13:35:00'))).to.equal('pre_open');
    expect(marketStatusAt(nseCalendar, ist('2025-10-21T14:00:00'))).to.include({
      open: true,
      session: 'special',
    });
    expect(nseCalendar.isMarketOpen(ist('2025-10-21T14:45:00'))).to.equal(false);
    expect(nseCalendar.lastClose(ist('2025-10-23T09:00:00'))).to.deep.equal(ist('2025-10-21T14:45:00'));
  });

  it('Muhurat 2026 (Sunday 8 Nov) is listed with unknown hours and not counted as open', () => {
    const muhurat = nseCalendar.yearInfo(2026).specialSessions.find((s) => s.date === '2026-11-08');
    expect(muhurat).to.include({ open: null, close: null });
    expect(muhurat?.source).to.match(/not in our sources/);
    expect(nseCalendar.isMarketOpen(ist('2026-11-08T18:30:00'))).to.equal(false);
  });

  it('26 Jan 2027 is closed; 2027 is provisional and says so', () => {
    expect(nseCalendar.isMarketOpen(ist('2027-01-26T10:00:00'))).to.equal(false);
    expect(marketStatusAt(nseCalendar, ist('2027-01-26T10:00:00'))).to.deep.equal({
      open: false,
      session: null,
      nextOpen: ist('2027-01-27T09:15:00'),
      complete: false,
    });
    expect(nseCalendar.yearInfo(2027)).to.include({ status: 'provisional', complete: false });
    // An undescribed year: weekdays trade, and the calendar does not claim to know more.
    expect(nseCalendar.isMarketOpen(ist('2028-03-01T10:00:00'))).to.equal(true);
    expect(nseCalendar.yearInfo(2028)).to.deep.include({ status: 'unknown', complete: false, holidays: [] });
  });

  it('pre-open: 09:00–09:15 IST on a trading day reads pre_open, not open', () => {
    expect(nseCalendar.sessionAt(ist('2026-07-13T08:59:59'))).to.equal(null);
    expect(marketStatusAt(nseCalendar, ist('2026-07-13T09:05:00'))).to.deep.equal({
      open: false,
      session: 'pre_open',
      nextOpen: ist('2026-07-13T09:15:00'),
      complete: true,
    });
    expect(nseCalendar.sessionAt(ist('2026-07-13T09:14:59'))).to.equal('pre_open');
    expect(nseCalendar.sessionAt(ist('2026-07-13T09:15:00'))).to.equal('regular');
    expect(nseCalendar.sessionAt(ist('2026-01-26T09:05:00')), 'no pre-open on a holiday').to.equal(null);
  });

  it('refuses data with an impossible date, a year without its source, or a session closing before it opens', () => {
    const base = {
      session: { open: '09:15', close: '15:30' },
      years: { '2026': { status: 'complete', source: 's' } },
    } as const;
    expect(() => createMarketCalendar({ ...base, holidays: [{ date: '2026-02-30', name: 'x' }] })).to.throw(
      /not a calendar date/,
    );
    expect(() => createMarketCalendar({ ...base, holidays: [{ date: '2025-02-26', name: 'x' }] })).to.throw(
      /year 2025 is missing/,
    );
    expect(() =>
      createMarketCalendar({
        ...base,
        holidays: [],
        specialSessions: [{ date: '2026-11-08', name: 'Muhurat', open: '19:00', close: '18:00' }],
      }),
    ).to.throw(/opens before it closes/);
  });
});
