/** The ids of every stored row (users, accounts, holdings, rules, endpoints) are UUIDs. */

/** A UUID in its text form, any version, either case. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID: anything else cannot name a row (callers answer 404, not 500). */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
