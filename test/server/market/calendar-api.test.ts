import type { MarketCalendarAnswer, MarketStatusAnswer } from '@app/common/api/market-calendar';
import { expect } from 'chai';
import { appSuite } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import { signIn } from '../../helpers/users.ts';

/** An IST wall-clock time as an ISO instant. */
const ist = (local: string) => new Date(`${local}+05:30`).toISOString();

describe('market: GET /api/market/calendar and /api/market/status (public)', () => {
  const { app } = appSuite({ embeddedStreamer: false });
  const api = () => apiClient(app.url);

  it('lists a year’s holidays and special sessions, without signing in', async () => {
    const res = await api().get<MarketCalendarAnswer>('/api/market/calendar?year=2026');
    expect(res.status).to.equal(200);
    const data = res.body.data!;
    expect(data).to.include({ year: 2026, complete: true, status: 'complete' });
    expect(data.source).to.match(/NSE\/CMTR\/71775/);
    expect(data.holidays).to.have.length(16);
    expect(data.holidays).to.deep.include({ date: '2026-01-26', name: 'Republic Day' });
    expect(data.holidays).to.deep.include({ date: '2026-11-24', name: 'Prakash Gurpurb Sri Guru Nanak Dev' });
    expect(data.special_sessions).to.deep.include({
      date: '2026-02-01',
      name: 'Union Budget (Sunday live session)',
      pre_open: '09:00',
      open: '09:15',
      close: '15:30',
    });
    expect(data.special_sessions.find((s) => s.date === '2026-11-08')).to.include({
      open: null,
      close: null,
    });
  });

  it('answers the same for a signed-in user', async () => {
    const user = await signIn(app);
    const res = await api().get<MarketCalendarAnswer>('/api/market/calendar?year=2025', user.token);
    expect(res.status).to.equal(200);
    expect(res.body.data!.holidays.map((h) => h.date)).to.include('2025-02-26');
    expect(res.body.data!.special_sessions).to.deep.include({
      date: '2025-10-21',
      name: 'Muhurat trading (Diwali Laxmi Pujan)',
      pre_open: '13:30',
      open: '13:45',
      close: '14:45',
    });
  });

  it('says when a year is provisional or missing from the data', async () => {
    const provisional = await api().get<MarketCalendarAnswer>('/api/market/calendar?year=2027');
    expect(provisional.body.data).to.deep.include({ complete: false, status: 'provisional' });
    expect(provisional.body.data!.holidays).to.deep.equal([{ date: '2027-01-26', name: 'Republic Day' }]);
    const unknown = await api().get<MarketCalendarAnswer>('/api/market/calendar?year=2030');
    expect(unknown.body.data).to.deep.equal({
      year: 2030,
      complete: false,
      status: 'unknown',
      source: null,
      holidays: [],
      special_sessions: [],
    });
  });

  it('answers 400 with a sentence for a bad year', async () => {
    for (const year of ['abc', '26', '20266', '1800', '2026.5', '']) {
      const res = await api().get(`/api/market/calendar?year=${encodeURIComponent(year)}`);
      expect(res.status, year).to.equal(400);
      expect(res.body.error, year).to.equal('year must be a four-digit year from 2000 to 2100, e.g. 2026');
    }
    const twice = await api().get('/api/market/calendar?year=2026&year=2027');
    expect(twice.status).to.equal(400);
    expect(twice.body.error).to.match(/^year must be/);
  });

  it('gives the status at an instant: special sessions, pre-open, holidays, the next open', async () => {
    const status = async (local: string) => {
      const res = await api().get<MarketStatusAnswer>(
        `/api/market/status?at=${encodeURIComponent(ist(local))}`,
      );
      expect(res.status, local).to.equal(200);
      return res.body.data!;
    };
    expect(await status('2026-02-01T10:00:00')).to.deep.equal({
      at: ist('2026-02-01T10:00:00'),
      open: true,
      session: 'special',
      next_open: ist('2026-02-02T09:15:00'),
      complete: true,
    });
    expect(await status('2025-10-21T14:00:00')).to.include({ open: true, session: 'special' });
    expect(await status('2025-10-21T10:00:00')).to.include({
      open: false,
      session: null,
      next_open: ist('2025-10-21T13:45:00'),
    });
    expect(await status('2026-07-13T09:05:00')).to.include({
      open: false,
      session: 'pre_open',
      next_open: ist('2026-07-13T09:15:00'),
    });
    expect(await status('2026-07-13T11:00:00')).to.include({ open: true, session: 'regular' });
    expect(await status('2025-02-26T11:00:00')).to.include({ open: false, session: null });
    expect(await status('2027-01-26T11:00:00')).to.include({
      open: false,
      next_open: ist('2027-01-27T09:15:00'),
      complete: false,
    });
    // An offset other than IST names the same instant.
    const utc = await api().get<MarketStatusAnswer>('/api/market/status?at=2026-02-01T04:30:00Z');
    expect(utc.body.data).to.include({ open: true, session: 'special' });
  });

  it('defaults to now, and answers 400 with a sentence for a bad instant', async () => {
    const now = await api().get<MarketStatusAnswer>('/api/market/status');
    expect(now.status).to.equal(200);
    expect(Date.parse(now.body.data!.next_open)).to.be.greaterThan(Date.now());
    for (const at of ['yesterday', '2026-02-01', '2026-02-30T10:00:00Z', '2026-02-01T25:00:00Z']) {
      const res = await api().get(`/api/market/status?at=${encodeURIComponent(at)}`);
      expect(res.status, at).to.equal(400);
      expect(res.body.error, at).to.equal('at must be an ISO 8601 date-time, e.g. 2026-02-01T10:00:00+05:30');
    }
    for (const at of [
      '1000-01-01T10:00:00Z',
      '1999-12-31T18:00:00Z',
      '2101-01-01T00:00:00+05:30',
      '9999-01-01T10:00:00Z',
    ]) {
      const res = await api().get(`/api/market/status?at=${encodeURIComponent(at)}`);
      expect(res.status, at).to.equal(400);
      expect(res.body.error, at).to.equal('at must fall in the years the calendar covers, 2000 to 2100');
    }
    // 18:30 UTC on 31 Dec 1999 is midnight of 1 Jan 2000 in IST: inside.
    expect((await api().get('/api/market/status?at=1999-12-31T18:30:00Z')).status).to.equal(200);
  });
});
