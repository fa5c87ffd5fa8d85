/**
 * Reads an exchange's published trading-holiday list, in the two shapes NSE publishes it:
 *
 * - the JSON of its holiday-master API (`/api/holiday-master?type=trading`), one list per segment:
 *   `{"CM":[{"tradingDate":"26-Jan-2026","weekDay":"Monday","description":"Republic Day","Sr_no":1}, ...],
 *   "FO":[...], ...}` — the `CM` (Capital Market) list is the equities one;
 * - the table of its holidays page saved as CSV: `Sr. No,Holidays,Date,Day` (`Description` for
 *   `Holidays` is accepted), dates as `26-Jan-2026` (or `2026-01-26`).
 *
 * Checks that every date parses, that the day printed beside it is that date's weekday, that the
 * list covers one calendar year, and that no date repeats. Weekend rows (NSE lists a Sunday
 * Diwali among its holidays) are returned apart: the market is shut on them anyway.
 */
import { isBlankRow, parseCsv, stripBom } from '../holdings/csv.ts';

/** One weekday the exchange stays shut, as read from the file. */
export interface ListedHoliday {
  date: string;
  name: string;
}

/** A holiday list that passed every check. */
export interface HolidayList {
  year: number;
  format: 'json' | 'csv';
  holidays: ListedHoliday[];
  /** Listed holidays falling on a Saturday or Sunday (not stored: those days never trade). */
  weekend: ListedHoliday[];
}

/** The file cannot be used; `problems` are sentences, one per bad row or rule. */
export class HolidayListError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join(' '));
    this.name = 'HolidayListError';
  }
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** `26-Jan-2026`, `26-JAN-2026`, `1-Mar-2026` or `2026-01-26` → `2026-01-26`; undefined when not a real date. */
export function parseListedDate(text: string): string | undefined {
  const value = text.trim();
  let y: number, m: number, d: number;
  const nse = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/.exec(value);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (nse) {
    [d, m, y] = [Number(nse[1]), MONTHS.indexOf(nse[2]!.toLowerCase()) + 1, Number(nse[3])];
  } else if (iso) {
    [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  } else {
    return undefined;
  }
  const date = new Date(Date.UTC(y, m - 1, d));
  if (m < 1 || date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
    return undefined;
  return date.toISOString().slice(0, 10);
}

interface RawRow {
  line: string;
  date: unknown;
  day: unknown;
  name: unknown;
}

function rowsFromJson(text: string): RawRow[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new HolidayListError([`The file is not valid JSON (${(err as Error).message}).`]);
  }
  const cm = (parsed as { CM?: unknown } | null)?.CM;
  if (!Array.isArray(cm)) {
    throw new HolidayListError([
      'The JSON has no "CM" list: expected NSE’s holiday-master answer, {"CM":[{"tradingDate":"26-Jan-2026","weekDay":"Monday","description":"Republic Day"}, ...]}.',
    ]);
  }
  return cm.map((row: Record<string, unknown> | null, i) => ({
    line: `CM entry ${i + 1}`,
    date: row?.tradingDate,
    day: row?.weekDay,
    name: row?.description,
  }));
}

function rowsFromCsv(text: string): RawRow[] {
  const rows = parseCsv(text).filter((r) => !isBlankRow(r));
  const headerAt = rows.findIndex((r) => r.some((c) => /^\s*date\s*$/i.test(c)));
  const header = rows[headerAt]?.map((c) => c.trim().toLowerCase());
  const col = (test: RegExp) => header?.findIndex((c) => test.test(c)) ?? -1;
  const dateCol = col(/^date$/);
  const nameCol = col(/^(holidays?|description)$/);
  const dayCol = col(/^(day|week\s*day)$/);
  if (!header || dateCol < 0 || nameCol < 0) {
    throw new HolidayListError([
      'The CSV has no header row with "Holidays" (or "Description") and "Date" columns: expected NSE’s table, Sr. No,Holidays,Date,Day.',
    ]);
  }
  return rows.slice(headerAt + 1).map((r, i) => ({
    line: `row ${headerAt + i + 2}`,
    date: r[dateCol],
    day: dayCol >= 0 ? r[dayCol] : undefined,
    name: r[nameCol],
  }));
}

/** Parses and checks a published holiday list (JSON or CSV); throws `HolidayListError` with every problem. */
export function parseHolidayList(content: string): HolidayList {
  const text = stripBom(content).trim();
  if (text === '') throw new HolidayListError(['The file is empty.']);
  const format = text.startsWith('{') ? 'json' : 'csv';
  const raw = format === 'json' ? rowsFromJson(text) : rowsFromCsv(text);
  const problems: string[] = [];
  const all: ListedHoliday[] = [];
  const seen = new Set<string>();
  for (const row of raw) {
    const shown = typeof row.date === 'string' ? row.date.trim() : JSON.stringify(row.date ?? '');
    const date = typeof row.date === 'string' ? parseListedDate(row.date) : undefined;
    // NSE marks the Muhurat day with a footnote star: "Diwali Laxmi Pujan*".
    const name = typeof row.name === 'string' ? row.name.replace(/\*+\s*$/, '').trim() : '';
    if (!date) {
      problems.push(`${row.line}: "${shown}" is not a date like 26-Jan-2026.`);
      continue;
    }
    if (!name) problems.push(`${row.line}: ${date} has no holiday name.`);
    if (typeof row.day === 'string' && row.day.trim() !== '') {
      const actual = WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()]!;
      if (row.day.trim().toLowerCase() !== actual)
        problems.push(`${row.line}: ${date} is a ${cap(actual)}, not a ${row.day.trim()}.`);
    }
    if (seen.has(date)) problems.push(`${row.line}: ${date} is listed twice.`);
    seen.add(date);
    all.push({ date, name });
  }
  if (raw.length === 0) problems.push('The file lists no holidays.');
  const years = [...new Set(all.map((h) => h.date.slice(0, 4)))].sort();
  if (years.length > 1)
    problems.push(`The list spans ${years.join(' and ')}: load one calendar year per file.`);
  if (problems.length > 0) throw new HolidayListError(problems);
  all.sort((a, b) => a.date.localeCompare(b.date));
  const isWeekend = (h: ListedHoliday) => [0, 6].includes(new Date(`${h.date}T00:00:00Z`).getUTCDay());
  return {
    year: Number(years[0]),
    format,
    holidays: all.filter((h) => !isWeekend(h)),
    weekend: all.filter(isWeekend),
  };
}

function cap(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
