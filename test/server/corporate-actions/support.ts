/** Shared steps of the corporate-actions tests: the real bc rows, a movable clock, clean-up. */
import { parseBcFile } from '@app/common/corporate-actions/index';
import { and, eq, inArray } from 'drizzle-orm';
import { corporateActions } from '../../../server/src/db/schema.ts';
import type { BootOptions, TestApp } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { readShared, sharedPath } from '../../helpers/shared-data.ts';
import { rulesSuite } from '../rules/support.ts';

export const BC_FILE = sharedPath('data/bc16122025_equity_rows.csv');
export const bcText = () => readShared('data/bc16122025_equity_rows.csv');
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
 * The opening of a suite of date-driven tests (`rulesSuite`, its clock in `options.now`) on a
 * database of its own: every app of the run's other workers applies the actions it finds due by
 * its own clock, and its rules engine fires the rules it loaded with its own prices, so on the
 * shared database another file could divide or fire this suite's rules. The file's actions are
 * forgotten before its tests and after them.
 */
export function corporateActionsSuite(options: BootOptions) {
  const suite = rulesSuite({ ownDatabase: true, ...options }, () => forgetActions(suite.app));
  before(() => forgetActions(suite.app));
  return suite;
}

/** A holding as `GET /api/holdings` lists it: the fields these tests read. */
export interface ListedHolding {
  symbol: string;
  exchange: string;
  quantity: number;
  average_price: number;
  broker_type: string;
}

/** The user's holdings, as the Holdings page reads them. */
export const holdingsOf = async (app: TestApp, user: SignedInUser) =>
  (await apiClient(app.url).get<ListedHolding[]>('/api/holdings', user.token)).body.data!;
