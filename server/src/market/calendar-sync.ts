/**
 * Replaces one year's holidays in the calendar data with an exchange's published list
 * (`npm run calendar:sync -- --from FILE`, see ./calendar-sync-cli.ts). The data is the JSON file
 * shipped in the repo (common/src/market/market-calendar.json), read by the server, the streamer
 * and the client bundle alike; the command rewrites it, and running processes read it at start.
 *
 * A list that would drop a holiday we know of is refused unless the caller says so
 * (`allowRemovals`): a truncated or wrong file must not quietly reopen a closed day.
 * Special sessions are not in the exchanges' holiday lists; they are kept as they are.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { calendarDataSchema, createMarketCalendar, type CalendarData } from '@app/common/market/calendar';
import type { HolidayList, ListedHoliday } from '@app/common/market/holiday-list';

/** The shipped calendar data file. */
export const CALENDAR_DATA_FILE = fileURLToPath(
  new URL('../../../common/src/market/market-calendar.json', import.meta.url),
);

/** A sync that cannot be applied, with the sentence to show. */
export class CalendarSyncRefused extends Error {
  override name = 'CalendarSyncRefused';
}

/** What a sync changes in one year. */
export interface CalendarSyncPlan {
  year: number;
  added: ListedHoliday[];
  removed: ListedHoliday[];
  renamed: { date: string; from: string; to: string }[];
  /** The calendar data with the year replaced (validated). */
  next: CalendarData;
}

/** Computes the new calendar data for `list`'s year; throws `CalendarSyncRefused` on removals not allowed. */
export function planCalendarSync(opts: {
  data: CalendarData;
  list: HolidayList;
  source: string;
  allowRemovals?: boolean;
}): CalendarSyncPlan {
  const data = calendarDataSchema.parse(opts.data);
  const { year, holidays } = opts.list;
  const prefix = `${year}-`;
  const before = new Map(data.holidays.filter((h) => h.date.startsWith(prefix)).map((h) => [h.date, h]));
  const after = new Map(holidays.map((h) => [h.date, h]));
  const added = holidays.filter((h) => !before.has(h.date));
  const removed = [...before.values()]
    .filter((h) => !after.has(h.date))
    .map((h) => ({ date: h.date, name: h.name }));
  const renamed = holidays
    .filter((h) => before.has(h.date) && before.get(h.date)!.name !== h.name)
    .map((h) => ({ date: h.date, from: before.get(h.date)!.name, to: h.name }));
  if (removed.length > 0 && !opts.allowRemovals) {
    const list = removed.map((h) => `${h.date} (${h.name})`).join(', ');
    throw new CalendarSyncRefused(
      `The file does not list ${removed.length === 1 ? 'a holiday' : `${removed.length} holidays`} we know for ${year}: ${list}. ` +
        'Nothing was changed. If the exchange really reopened those days, run again with --allow-removals.',
    );
  }
  // A holiday that came with its own source (a later circular) keeps it when the file still lists it.
  const keptSource = (h: ListedHoliday) => {
    const old = before.get(h.date);
    return old?.source && old.name === h.name ? { source: old.source } : {};
  };
  const next: CalendarData = {
    ...data,
    years: { ...data.years, [String(year)]: { status: 'complete', source: opts.source } },
    holidays: [
      ...data.holidays.filter((h) => !h.date.startsWith(prefix)),
      ...holidays.map((h) => ({ date: h.date, name: h.name, ...keptSource(h) })),
    ].sort((a, b) => a.date.localeCompare(b.date)),
  };
  createMarketCalendar(next);
  return { year, added, removed, renamed, next };
}

/** Reads the calendar data file. */
export async function readCalendarData(file: string): Promise<CalendarData> {
  return calendarDataSchema.parse(JSON.parse(await readFile(file, 'utf8')));
}

/** Writes the calendar data file atomically (a reader never sees half a file). */
export async function writeCalendarData(file: string, data: CalendarData): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(data, null, 2)}\n`);
  await rename(temp, file);
}
