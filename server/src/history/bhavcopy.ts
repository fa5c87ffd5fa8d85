/**
 * Reading one bhavcopy file, whichever of the four layouts it is (recognised by its header):
 * its exchange, trading day and equity rows, or BhavcopyError saying in one sentence why the
 * file changes nothing (a header we do not know, a row cut short, no rows, a day the market
 * was shut). docs/history.md#formats.
 */
import path from 'node:path';
import { formatExDate } from '@app/common/corporate-actions/describe';
import { isBlankRow, parseCsv } from '@app/common/holdings/csv';
import { istDateOf, nseCalendar } from '@app/common/market/calendar';
import { strFromU8, unzipSync } from 'fflate';
import { bseLegacy } from './bse-legacy.ts';
import { nseLegacy } from './nse-legacy.ts';
import { BhavcopyError, type BhavcopyReader, type BhavcopyRow, type Table } from './table.ts';
import { bseUdiff } from './bse-udiff.ts';
import { nseUdiff } from './nse-udiff.ts';

const READERS: readonly BhavcopyReader[] = [nseUdiff, bseUdiff, nseLegacy, bseLegacy];

export interface Bhavcopy {
  file: string;
  title: string;
  exchange: BhavcopyReader['exchange'];
  /** `YYYY-MM-DD`. */
  date: string;
  rows: BhavcopyRow[];
}

/** The CSV text of a file's bytes: itself, or the one CSV inside a zip (NSE ships UDiFF zipped). */
export function bhavcopyText(file: string, bytes: Uint8Array): string {
  if (bytes[0] !== 0x50 || bytes[1] !== 0x4b) return strFromU8(bytes);
  let inner: Record<string, Uint8Array>;
  try {
    inner = unzipSync(bytes, { filter: (f) => /\.csv$/i.test(f.name) });
  } catch (err) {
    throw new BhavcopyError(file, `it is a damaged zip file (${(err as Error).message})`);
  }
  const csvs = Object.values(inner);
  if (csvs.length !== 1) throw new BhavcopyError(file, `the zip holds ${csvs.length} CSV files, not one`);
  return strFromU8(csvs[0]!);
}

/** Why the market was shut on `date`, or null on a trading day (special sessions included). */
function shutReason(date: string): string | null {
  // A day traded when a session closed on it: the last close at or before 23:59 IST is that day's.
  const endOfDay = new Date(Date.parse(`${date}T23:59:59+05:30`));
  if (istDateOf(nseCalendar.lastClose(endOfDay)) === date) return null;
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) return weekday === 0 ? 'a Sunday' : 'a Saturday';
  const holiday = nseCalendar.yearInfo(Number(date.slice(0, 4))).holidays.find((h) => h.date === date);
  return holiday ? `a market holiday (${holiday.name})` : 'a day the market was shut';
}

/** Reads one file (`name` is for messages and, for BSE's old layout, its date). Throws BhavcopyError. */
export function readBhavcopy(name: string, bytes: Uint8Array): Bhavcopy {
  const file = path.basename(name);
  // The house CSV reader (common/), as for NSE's bc file: several times faster than fast-csv here.
  const rows = parseCsv(bhavcopyText(file, bytes)).filter((r) => !isBlankRow(r));
  const header = (rows.shift() ?? []).map((c) => c.trim().toUpperCase());
  while (header.length > 0 && header.at(-1) === '') header.pop();
  const reader = READERS.find((r) => r.matches(header, rows[0]));
  if (!reader)
    throw new BhavcopyError(
      file,
      `its header is not a bhavcopy's (it starts "${header.slice(0, 4).join(',')}")`,
    );
  if (rows.length === 0) throw new BhavcopyError(file, 'it has a header but no rows: it looks cut short');
  const short = rows.findIndex((r) => r.length < header.length);
  if (short >= 0)
    throw new BhavcopyError(
      file,
      `line ${short + 2} has ${rows[short]!.length} of the ${header.length} columns: the file looks cut short`,
    );
  const table: Table = { file, header, records: rows };
  const { date, rows: bars } = reader.read(table);
  const shut = shutReason(date);
  if (shut)
    throw new BhavcopyError(
      file,
      `it is dated ${formatExDate(date)}, ${shut}, when the market did not trade`,
    );
  if (bars.length === 0) throw new BhavcopyError(file, `it holds no equity rows (${reader.title})`);
  return { file, title: reader.title, exchange: reader.exchange, date, rows: bars };
}
