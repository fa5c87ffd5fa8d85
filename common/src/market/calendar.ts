/**
 * NSE/BSE market hours in IST (UTC+05:30, no daylight saving): the normal session 09:15–15:30,
 * Monday to Friday, minus exchange holidays, plus special sessions (Muhurat trading). Pure
 * functions over editable data (`calendar-data.ts`); a day outside the data's years counts as
 * a normal weekday. One implementation for the streamer (when to poll) and the client (the
 * market indicator).
 */
import { z } from 'zod';
import { NSE_CALENDAR_DATA } from './calendar-data.ts';

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'must be HH:MM' });
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be YYYY-MM-DD' });

/** The shape of the editable calendar data. */
export const calendarDataSchema = z.object({
  session: z.object({ open: hhmm, close: hhmm }),
  holidays: z.array(isoDate),
  specialSessions: z
    .array(z.object({ date: isoDate, open: hhmm, close: hhmm, name: z.string().optional() }))
    .default([]),
});
/** Calendar data as written in `calendar-data.ts`. */
export type CalendarData = z.input<typeof calendarDataSchema>;

/** When an exchange trades. All instants are plain `Date`s; the calendar works in IST itself. */
export interface MarketCalendar {
  /** True from a session's open (inclusive) to its close (exclusive): 09:15:00 is open, 15:30:00 is not. */
  isMarketOpen(date: Date): boolean;
  /** The open of the first session that starts after `date` (strictly later). */
  nextOpen(date: Date): Date;
  /** The close of the last session that ended at or before `date`. */
  lastClose(date: Date): Date;
}

const IST_OFFSET_MS = 330 * 60_000;
const DAY_MS = 86_400_000;
/** Further than any run of holidays and weekends; only reached with broken data. */
const SEARCH_DAYS = 400;

/** The IST calendar day of an instant, as the UTC midnight of that date (zone-free day arithmetic). */
function istDay(ms: number): number {
  return Math.floor((ms + IST_OFFSET_MS) / DAY_MS) * DAY_MS;
}

function minutesOf(time: string): number {
  const [h = 0, m = 0] = time.split(':').map(Number);
  return h * 60 + m;
}

/** Builds a calendar from holiday/session data (validated; throws a ZodError on bad data). */
export function createMarketCalendar(input: CalendarData): MarketCalendar {
  const data = calendarDataSchema.parse(input);
  const holidays = new Set(data.holidays);
  const special = new Map(data.specialSessions.map((s) => [s.date, s]));
  const normal = { open: minutesOf(data.session.open), close: minutesOf(data.session.close) };

  /** The session (UTC instants) of an IST day, or undefined when the market stays shut. */
  function sessionOf(day: number): { open: number; close: number } | undefined {
    const iso = new Date(day).toISOString().slice(0, 10);
    const specialSession = special.get(iso);
    let span = normal;
    if (specialSession) {
      span = { open: minutesOf(specialSession.open), close: minutesOf(specialSession.close) };
    } else {
      const weekday = new Date(day).getUTCDay();
      if (weekday === 0 || weekday === 6 || holidays.has(iso)) return undefined;
    }
    const midnight = day - IST_OFFSET_MS;
    return { open: midnight + span.open * 60_000, close: midnight + span.close * 60_000 };
  }

  function search(
    from: Date,
    step: 1 | -1,
    pick: (s: { open: number; close: number }) => number | undefined,
  ) {
    const today = istDay(from.getTime());
    for (let i = 0; i <= SEARCH_DAYS; i++) {
      const session = sessionOf(today + step * i * DAY_MS);
      const found = session && pick(session);
      if (found !== undefined) return new Date(found);
    }
    throw new RangeError(`no trading session within ${SEARCH_DAYS} days of ${from.toISOString()}`);
  }

  return {
    isMarketOpen(date) {
      const t = date.getTime();
      const session = sessionOf(istDay(t));
      return session !== undefined && t >= session.open && t < session.close;
    },
    nextOpen(date) {
      return search(date, 1, (s) => (s.open > date.getTime() ? s.open : undefined));
    },
    lastClose(date) {
      return search(date, -1, (s) => (s.close <= date.getTime() ? s.close : undefined));
    },
  };
}

/** NSE/BSE equity market calendar (normal session and 2026 holidays). */
export const nseCalendar: MarketCalendar = createMarketCalendar(NSE_CALENDAR_DATA);

/** Is the NSE/BSE normal session running at `date`? */
export function isMarketOpen(date: Date): boolean {
  return nseCalendar.isMarketOpen(date);
}

/** The next NSE/BSE session open strictly after `date`. */
export function nextOpen(date: Date): Date {
  return nseCalendar.nextOpen(date);
}

/** The last NSE/BSE session close at or before `date`. */
export function lastClose(date: Date): Date {
  return nseCalendar.lastClose(date);
}
