/**
 * The NSE/BSE trading calendar as data: `common/src/market/market-calendar.json`, shipped in the repo
 * so the server, the streamer (which has no database in scaled mode) and the client bundle all
 * read the same file. Checked by `calendarDataSchema` when the calendar is built, so a typo fails
 * at start-up and in the tests, not at 09:15.
 *
 * The file holds, per year, a status (`complete` once the exchange's list is in, `provisional`
 * before) and its source; holidays as `{date, name, source?}`; special sessions (Budget-day
 * weekend sessions, Muhurat trading) with their own pre-open/open/close in IST `HH:MM`.
 * Refresh a year from the exchange's published list with `npm run calendar:sync -- --from FILE`
 * (server/src/market/calendar-sync-cli.ts); add special sessions by hand when announced. Running
 * processes read the file at start: restart them (or redeploy) after a sync.
 */
import type { CalendarData } from './calendar.ts';
import calendarFile from './market-calendar.json';

/** The shipped calendar data. JSON types widen enums to string; `createMarketCalendar` validates it. */
export const NSE_CALENDAR_DATA = calendarFile as CalendarData;
