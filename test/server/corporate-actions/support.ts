/** Shared steps of the corporate-actions tests: the real bc rows, a movable clock, clean-up. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseBcFile } from '@app/common/corporate-actions/index';
import { and, eq, inArray } from 'drizzle-orm';
import { corporateActions } from '../../../server/src/db/schema.ts';
import type { BootOptions, TestApp } from '../../helpers/app.ts';
import { rulesSuite } from '../rules/support.ts';

export const BC_FILE = fileURLToPath(
  new URL('../../../../shared/data/bc16122025_equity_rows.csv', import.meta.url),
);
export const bcText = () => readFileSync(BC_FILE, 'utf8');
/** The instruments the real file lists (the run's PostgreSQL database is shared by every test). */
export const BC_SYMBOLS = [...new Set(parseBcFile(bcText()).actions.map((a) => a.symbol))];

/** A clock the app's date-driven jobs read; `set` moves it (IST wall time). */
export function testClock(istStart: string) {
  let now = new Date(`${istStart}+05:30`);
  return {
    now: () => now,
    set(ist: string) {
      now = new Date(`${ist}+05:30`);
    },
  };
}

/** Forgets the file's actions (and so their adjustments), as if it had never been read. */
export async function forgetActions(app: TestApp, symbols: readonly string[] = BC_SYMBOLS): Promise<void> {
  await app.runtime.deps.db
    .delete(corporateActions)
    .where(and(eq(corporateActions.exchange, 'NSE'), inArray(corporateActions.symbol, [...symbols])));
}

/**
 * The opening of a suite of date-driven tests (`rulesSuite`, its clock in `options.now`): the
 * file's actions forgotten before its tests and after them.
 */
export function corporateActionsSuite(options: BootOptions) {
  const suite = rulesSuite(options, () => forgetActions(suite.app));
  before(() => forgetActions(suite.app));
  return suite;
}
