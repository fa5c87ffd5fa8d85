/**
 * Query schemas and answer shapes of `GET /api/market/calendar?year=` and
 * `GET /api/market/status?at=` (one home for the server's validation and any client use).
 */
import { z } from 'zod';
import type { SessionKind, YearStatus } from '../market/calendar.ts';

/** The first and last years the calendar routes answer for. */
export const CALENDAR_YEARS = { min: 2000, max: 2100 } as const;
const YEAR_SENTENCE = `year must be a four-digit year from ${CALENDAR_YEARS.min} to ${CALENDAR_YEARS.max}, e.g. 2026`;

/** `?year=YYYY` (optional: the current IST year). */
export const calendarQuerySchema = z.object({
  year: z
    .string({ message: YEAR_SENTENCE })
    .regex(/^\d{4}$/, { message: YEAR_SENTENCE })
    .transform(Number)
    .refine((y) => y >= CALENDAR_YEARS.min && y <= CALENDAR_YEARS.max, { message: YEAR_SENTENCE })
    .optional(),
});

/** True when `YYYY-MM-DD` at the start of `s` is a real calendar date (not 2026-02-30). */
function realDate(s: string): boolean {
  const [y = 0, m = 0, d = 0] = s.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const AT_SENTENCE = 'at must be an ISO 8601 date-time, e.g. 2026-02-01T10:00:00+05:30';
const AT_YEARS_SENTENCE = `at must fall in the years the calendar covers, ${CALENDAR_YEARS.min} to ${CALENDAR_YEARS.max}`;

/** The IST calendar year of an instant. */
const istYear = (at: Date) => new Date(at.getTime() + 5.5 * 3_600_000).getUTCFullYear();

/** `?at=ISO` (optional: now). */
export const statusQuerySchema = z.object({
  at: z
    .string({ message: AT_SENTENCE })
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/, {
      message: AT_SENTENCE,
    })
    .refine((s) => realDate(s) && !Number.isNaN(Date.parse(s)), { message: AT_SENTENCE })
    .transform((s) => new Date(s))
    .refine((at) => istYear(at) >= CALENDAR_YEARS.min && istYear(at) <= CALENDAR_YEARS.max, {
      message: AT_YEARS_SENTENCE,
    })
    .optional(),
});

/** One year of the calendar, as the API presents it. */
export interface MarketCalendarAnswer {
  year: number;
  /** True only when the exchange's full list for the year is in the data. */
  complete: boolean;
  status: YearStatus;
  source: string | null;
  holidays: { date: string; name: string }[];
  /** `open`/`close` are IST `HH:MM`, null while the exchange has not announced them. */
  special_sessions: {
    date: string;
    name: string;
    pre_open: string | null;
    open: string | null;
    close: string | null;
  }[];
}

/** The market at an instant, as the API presents it. */
export interface MarketStatusAnswer {
  at: string;
  open: boolean;
  session: SessionKind | null;
  next_open: string;
  complete: boolean;
}
