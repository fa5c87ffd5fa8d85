/**
 * NSE/BSE market hours in IST (UTC+05:30, no daylight saving): pre-open 09:00–09:15, the normal
 * session 09:15–15:30, Monday to Friday, minus exchange holidays, plus special sessions (a
 * Budget-day weekend session, Muhurat trading) with their own hours. Pure functions over data
 * (`common/src/market/market-calendar.json`, see `calendar-data.ts`). One implementation for the
 * streamer (when to poll), the server (`/api/market/*`) and the client (the market indicator).
 *
 * A year the data does not describe, or describes as `provisional`, is not silently trusted:
 * its weekdays count as normal sessions (the safe side for a price feed: poll rather than miss
 * a session), and `yearInfo(year).complete` is false so the API says so.
 */
import { z } from 'zod';
import { NSE_CALENDAR_DATA } from './calendar-data.ts';

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'must be HH:MM' });
/** A real calendar date written `YYYY-MM-DD` (2026-02-30 is refused). */
export const isoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be YYYY-MM-DD' })
  .refine(
    (s) =>
      !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    {
      message: 'is not a calendar date',
    },
  );

/** A day the exchange stays shut. */
export const holidaySchema = z.object({
  date: isoDateSchema,
  name: z.string().trim().min(1, 'a holiday needs a name'),
  source: z.string().min(1).optional(),
});
export type Holiday = z.infer<typeof holidaySchema>;

/** A day that trades out of the normal pattern; `open`/`close` null while the exchange has not announced them. */
export const specialSessionSchema = z
  .object({
    date: isoDateSchema,
    name: z.string().trim().min(1),
    preOpen: hhmm.nullable().optional(),
    open: hhmm.nullable(),
    close: hhmm.nullable(),
    source: z.string().min(1).optional(),
  })
  .refine((s) => (s.open === null) === (s.close === null), {
    message: 'a special session has both open and close, or neither',
  })
  .refine((s) => s.open === null || s.close === null || s.open < s.close, {
    message: 'a special session opens before it closes',
  })
  .refine((s) => !s.preOpen || (s.open !== null && s.preOpen < s.open), {
    message: 'a special session’s pre-open starts before its open',
  });
export type SpecialSession = z.infer<typeof specialSessionSchema>;

/** How far the data for a year can be trusted. */
export const yearStatusSchema = z.enum(['complete', 'provisional']);
export type YearStatus = z.infer<typeof yearStatusSchema> | 'unknown';

/** The shape of the calendar data (`common/src/market/market-calendar.json`). */
export const calendarDataSchema = z
  .object({
    exchange: z.string().optional(),
    session: z.object({ preOpen: hhmm.optional(), open: hhmm, close: hhmm, source: z.string().optional() }),
    years: z
      .record(
        z.string().regex(/^\d{4}$/, { message: 'years are keyed by a four-digit year' }),
        z.object({
          status: yearStatusSchema,
          source: z.string().min(1, 'each year says where its data comes from'),
        }),
      )
      .default({}),
    holidays: z.array(holidaySchema),
    specialSessions: z.array(specialSessionSchema).default([]),
  })
  .superRefine((data, ctx) => {
    for (const list of [data.holidays, data.specialSessions]) {
      const seen = new Set<string>();
      for (const { date } of list) {
        if (seen.has(date)) ctx.addIssue({ code: 'custom', message: `${date} is listed twice` });
        seen.add(date);
      }
    }
    for (const { date } of [...data.holidays, ...data.specialSessions]) {
      if (!data.years[date.slice(0, 4)])
        ctx.addIssue({
          code: 'custom',
          message: `${date}: the year ${date.slice(0, 4)} is missing from years`,
        });
    }
  });
/** Calendar data as written in the JSON file (or by a test). */
export type CalendarData = z.input<typeof calendarDataSchema>;

/** What trades at an instant: the normal session, a special session, or a pre-open window. */
export type SessionKind = 'regular' | 'special' | 'pre_open';

/** The hours of an exchange; all instants are plain `Date`s, the calendar works in IST itself. */
export interface MarketCalendar {
  /** True from a session's open (inclusive) to its close (exclusive): 09:15:00 is open, 15:30:00 is not. Pre-open is not open. */
  isMarketOpen(date: Date): boolean;
  /** The open of the first session that starts after `date` (strictly later). */
  nextOpen(date: Date): Date;
  /** The close of the last session that ended at or before `date`. */
  lastClose(date: Date): Date;
}

/** What the data says about one calendar year. */
export interface CalendarYear {
  year: number;
  status: YearStatus;
  /** True only when the exchange's full list for the year is in the data. */
  complete: boolean;
  source: string | null;
  holidays: Holiday[];
  specialSessions: SpecialSession[];
}

/** A calendar that also knows pre-open, special sessions and how complete each year is. */
export interface ExchangeCalendar extends MarketCalendar {
  /** `regular` / `special` while trading, `pre_open` in the window before an open, otherwise null. */
  sessionAt(date: Date): SessionKind | null;
  /** The data for a calendar year (empty lists and `status: 'unknown'` outside the data). */
  yearInfo(year: number): CalendarYear;
}

const IST_OFFSET_MS = 330 * 60_000;
const DAY_MS = 86_400_000;
/** Further than any run of holidays and weekends; only reached with broken data. */
const SEARCH_DAYS = 400;

/** The IST calendar day of an instant, as the UTC midnight of that date (zone-free day arithmetic). */
function istDay(ms: number): number {
  return Math.floor((ms + IST_OFFSET_MS) / DAY_MS) * DAY_MS;
}

/** The IST calendar date (`YYYY-MM-DD`) of an instant. */
export function istDateOf(date: Date): string {
  return new Date(istDay(date.getTime())).toISOString().slice(0, 10);
}

function minutesOf(time: string): number {
  const [h = 0, m = 0] = time.split(':').map(Number);
  return h * 60 + m;
}

interface DaySession {
  kind: 'regular' | 'special';
  preOpen: number;
  open: number;
  close: number;
}

/** Builds a calendar from holiday/session data (validated; throws a ZodError on bad data). */
export function createMarketCalendar(input: CalendarData): ExchangeCalendar {
  const data = calendarDataSchema.parse(input);
  const holidays = new Set(data.holidays.map((h) => h.date));
  const special = new Map(data.specialSessions.map((s) => [s.date, s]));
  const normal = {
    preOpen: minutesOf(data.session.preOpen ?? data.session.open),
    open: minutesOf(data.session.open),
    close: minutesOf(data.session.close),
  };

  /** The session (UTC instants) of an IST day, or undefined when the market stays shut. */
  function sessionOf(day: number): DaySession | undefined {
    const iso = new Date(day).toISOString().slice(0, 10);
    const midnight = day - IST_OFFSET_MS;
    const at = (minutes: number) => midnight + minutes * 60_000;
    const specialSession = special.get(iso);
    if (specialSession) {
      // Hours not announced: the day counts as shut rather than guessed.
      if (specialSession.open === null || specialSession.close === null) return undefined;
      const open = minutesOf(specialSession.open);
      const preOpen = specialSession.preOpen ? minutesOf(specialSession.preOpen) : open;
      return {
        kind: 'special',
        preOpen: at(preOpen),
        open: at(open),
        close: at(minutesOf(specialSession.close)),
      };
    }
    const weekday = new Date(day).getUTCDay();
    if (weekday === 0 || weekday === 6 || holidays.has(iso)) return undefined;
    return { kind: 'regular', preOpen: at(normal.preOpen), open: at(normal.open), close: at(normal.close) };
  }

  function search(from: Date, step: 1 | -1, pick: (s: DaySession) => number | undefined) {
    const today = istDay(from.getTime());
    for (let i = 0; i <= SEARCH_DAYS; i++) {
      const session = sessionOf(today + step * i * DAY_MS);
      const found = session && pick(session);
      if (found !== undefined) return new Date(found);
    }
    throw new RangeError(`no trading session within ${SEARCH_DAYS} days of ${from.toISOString()}`);
  }

  function sessionAt(date: Date): SessionKind | null {
    const t = date.getTime();
    const session = sessionOf(istDay(t));
    if (!session || t < session.preOpen || t >= session.close) return null;
    return t < session.open ? 'pre_open' : session.kind;
  }

  return {
    sessionAt,
    isMarketOpen(date) {
      const kind = sessionAt(date);
      return kind === 'regular' || kind === 'special';
    },
    nextOpen(date) {
      return search(date, 1, (s) => (s.open > date.getTime() ? s.open : undefined));
    },
    lastClose(date) {
      return search(date, -1, (s) => (s.close <= date.getTime() ? s.close : undefined));
    },
    yearInfo(year) {
      const info = data.years[String(year)];
      const inYear = (d: { date: string }) => d.date.startsWith(`${year}-`);
      return {
        year,
        status: info?.status ?? 'unknown',
        complete: info?.status === 'complete',
        source: info?.source ?? null,
        holidays: data.holidays.filter(inYear).sort((a, b) => a.date.localeCompare(b.date)),
        specialSessions: data.specialSessions.filter(inYear).sort((a, b) => a.date.localeCompare(b.date)),
      };
    },
  };
}

/** Where the market stands at an instant: the answer of `GET /api/market/status`. */
export interface MarketStatus {
  open: boolean;
  session: SessionKind | null;
  nextOpen: Date;
  /** False when the instant's year is missing from the data or only provisional. */
  complete: boolean;
}

/** The market's status at `date` according to `calendar`. */
export function marketStatusAt(calendar: ExchangeCalendar, date: Date): MarketStatus {
  const session = calendar.sessionAt(date);
  return {
    open: session === 'regular' || session === 'special',
    session,
    nextOpen: calendar.nextOpen(date),
    complete: calendar.yearInfo(Number(istDateOf(date).slice(0, 4))).complete,
  };
}

/** NSE/BSE equity market calendar (the shipped data: 2025, 2026, provisional 2027). */
export const nseCalendar: ExchangeCalendar = createMarketCalendar(NSE_CALENDAR_DATA);

/** Is the NSE/BSE normal (or a special) session running at `date`? */
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
