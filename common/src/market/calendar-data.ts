/**
 * The NSE/BSE trading calendar, as editable data (checked by `calendarDataSchema` when the
 * calendar is built, so a typo fails at start-up and in the tests, not at 09:15).
 *
 * Editing: times are IST wall-clock `HH:MM`, dates `YYYY-MM-DD`.
 * - `session`: the normal equity session, Monday to Friday.
 * - `holidays`: weekdays the exchanges stay shut. Add next year's list when NSE publishes it
 *   (NSE circular "Holidays for the year"); a date outside the list counts as a normal weekday.
 * - `specialSessions`: a day that trades out of the normal pattern (Muhurat trading on Diwali,
 *   a Saturday budget session), with its own hours; add it once the exchange announces them.
 *
 * The streamer (when real feeds poll) and the client's market indicator both read this file.
 */
import type { CalendarData } from './calendar.ts';

/** NSE/BSE normal session and 2026 trading holidays (../shared/data/README.md). */
export const NSE_CALENDAR_DATA = {
  session: { open: '09:15', close: '15:30' },
  holidays: [
    '2026-01-15', // Municipal Corporation election, Maharashtra
    '2026-01-26', // Republic Day
    '2026-03-03', // Holi
    '2026-03-26', // Shri Ram Navami
    '2026-03-31', // Shri Mahavir Jayanti
    '2026-04-03', // Good Friday
    '2026-04-14', // Dr. Baba Saheb Ambedkar Jayanti
    '2026-05-01', // Maharashtra Day
    '2026-05-28', // Bakri Id
    '2026-06-26', // Muharram
    '2026-09-14', // Ganesh Chaturthi
    '2026-10-02', // Mahatma Gandhi Jayanti
    '2026-10-20', // Dussehra
    '2026-11-10', // Diwali Balipratipada
    '2026-11-24', // Prakash Gurpurb Sri Guru Nanak Dev
    '2026-12-25', // Christmas
  ],
  // Muhurat trading falls on Sunday 8 Nov 2026; add { date: '2026-11-08', open, close, name }
  // here once the exchange announces its hours.
  specialSessions: [],
} satisfies CalendarData;
