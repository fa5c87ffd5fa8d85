/**
 * Dates in queries: ISO 8601 text between 2000-01-01 and 2099-12-31 (UTC). Nothing the app keeps
 * is older or newer, and the bounds keep every date inside what a timestamptz column holds.
 */
import { z } from 'zod';

export const FIRST_DATE = '2000-01-01';
export const LAST_DATE = '2099-12-31';

const FROM = Date.parse(`${FIRST_DATE}T00:00:00Z`);
const UNTIL = Date.parse('2100-01-01T00:00:00Z');

/** A date query parameter named `field`, parsed into a Date within the range above. */
export function isoDate(field: string) {
  return z
    .string()
    .refine((text) => Number.isFinite(Date.parse(text)), {
      error: `${field} must be a date (ISO 8601)`,
      abort: true,
    })
    .refine(
      (text) => {
        const at = Date.parse(text);
        return at >= FROM && at < UNTIL;
      },
      { error: `${field} must be a date between ${FIRST_DATE} and ${LAST_DATE}` },
    )
    .transform((text) => new Date(text));
}
