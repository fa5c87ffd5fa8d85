import { MISSING_VALUE } from './money.ts';

/** The one time zone the product shows times in. */
export const IST_TIME_ZONE = 'Asia/Kolkata';

/** Anything that names an instant: a Date, epoch milliseconds, or an ISO 8601 string. */
export type Instant = Date | number | string;

const istParts = new Intl.DateTimeFormat('en-IN', {
  timeZone: IST_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

interface IstFields {
  day: string;
  month: string;
  year: string;
  hour: string;
  minute: string;
  second: string;
}

function toDate(instant: Instant): Date | undefined {
  const date = instant instanceof Date ? instant : new Date(instant);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function istFields(date: Date): IstFields {
  const fields: Record<string, string> = {};
  for (const part of istParts.formatToParts(date)) fields[part.type] = part.value;
  return {
    day: fields.day ?? '',
    month: fields.month ?? '',
    year: fields.year ?? '',
    // Some engines print midnight as 24 even with h23; the product always wants 00.
    hour: fields.hour === '24' ? '00' : (fields.hour ?? ''),
    minute: fields.minute ?? '',
    second: fields.second ?? '',
  };
}

/**
 * Date and time in India Standard Time, 24-hour: `'22/11/2026, 14:05:09'`.
 * Date and time are separated by `', '` so callers can split them. Invalid input prints `'—'`.
 */
export function formatIstDateTime(instant: Instant): string {
  const date = toDate(instant);
  if (!date) return MISSING_VALUE;
  const f = istFields(date);
  return `${f.day}/${f.month}/${f.year}, ${f.hour}:${f.minute}:${f.second}`;
}

/** The IST calendar date: `'22/11/2026'`. Invalid input prints `'—'`. */
export function formatIstDate(instant: Instant): string {
  const date = toDate(instant);
  if (!date) return MISSING_VALUE;
  const f = istFields(date);
  return `${f.day}/${f.month}/${f.year}`;
}

/**
 * The IST wall-clock time, 24-hour: `'14:05:09'`, or `'14:05'` with `{ seconds: false }`.
 * Invalid input prints `'—'`.
 */
export function formatIstTime(instant: Instant, opts: { seconds?: boolean } = {}): string {
  const date = toDate(instant);
  if (!date) return MISSING_VALUE;
  const f = istFields(date);
  return opts.seconds === false ? `${f.hour}:${f.minute}` : `${f.hour}:${f.minute}:${f.second}`;
}
