/**
 * What the four bhavcopy readers share: the rows a file yields, the error that refuses a file,
 * and reading a cell by its column name.
 */
import type { Exchange } from '@app/common/instruments/types';
import { z } from 'zod';

/** A file that changes nothing: `message` is the one sentence saying why. */
export class BhavcopyError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
    this.name = 'BhavcopyError';
  }
}

/** One security's day as the file prints it; `key` is the NSE symbol or the BSE scrip code. */
export interface BhavcopyRow {
  key: string;
  isin: string | null;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

/** A file's header (trimmed, upper-cased, trailing empty columns dropped) and its records. */
export interface Table {
  file: string;
  header: string[];
  records: string[][];
}

/** A bhavcopy layout: how it is recognised by its header, and how its rows are read. */
export interface BhavcopyReader {
  /** In messages: "NSE UDiFF bhavcopy". */
  title: string;
  exchange: Exchange;
  matches(header: readonly string[], first: readonly string[] | undefined): boolean;
  /** The file's trading day and its equity rows; throws BhavcopyError. */
  read(table: Table): { date: string; rows: BhavcopyRow[] };
}

/** The value of `column` in a record (trimmed); the header is known to hold it. */
export function cellReader(table: Table) {
  const index = new Map(table.header.map((name, i) => [name, i]));
  return (record: readonly string[], column: string) => (record[index.get(column) ?? -1] ?? '').trim();
}

const price = z
  .string()
  .regex(/^\d+(\.\d+)?$/)
  .refine((s) => Number(s) > 0);
const volume = z.string().regex(/^\d+$/);

/** The row's prices and volume, or BhavcopyError naming the first that is not a number. */
export function checkedRow(table: Table, line: number, row: BhavcopyRow): BhavcopyRow {
  const name = row.key.split('|')[0];
  for (const field of ['open', 'high', 'low', 'close'] as const)
    if (!price.safeParse(row[field]).success)
      throw new BhavcopyError(table.file, `line ${line} (${name}) has ${field} "${row[field]}", not a price`);
  if (!volume.safeParse(row.volume).success)
    throw new BhavcopyError(table.file, `line ${line} (${name}) has volume "${row.volume}", not a number`);
  return row;
}

/** The one trading day every row names, or BhavcopyError when the rows name none or several. */
export function singleDate(table: Table, dates: Iterable<string | null>): string {
  const distinct = new Set(dates);
  if (distinct.has(null)) throw new BhavcopyError(table.file, 'a row has no readable trading date');
  if (distinct.size !== 1)
    throw new BhavcopyError(table.file, `its rows name ${distinct.size} trading days, not one`);
  return [...distinct][0]!;
}
