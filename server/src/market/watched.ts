/**
 * What puts an instrument in the watch set, in one place: a holding, a position rule that is
 * active or waiting to re-arm, an active price alert. The whole set, one user's share of it
 * (the watch-set keeper, the quote fan-out) and the check that a dropped instrument is still
 * watched by someone else are all built from this list.
 */
import { sql, type SQL } from 'drizzle-orm';

const WATCHERS: ReadonlyArray<{ table: SQL; watching: SQL }> = [
  { table: sql.raw('holdings'), watching: sql.raw('true') },
  { table: sql.raw('position_rules'), watching: sql.raw('(is_active or rearm_at is not null)') },
  { table: sql.raw('price_alerts'), watching: sql.raw('is_active') },
];

/** `select symbol, exchange` of the watched instruments, distinct; only `userId`'s when given. */
export function watchedInstrumentsSql(userId?: string): SQL {
  const ofUser = userId ? sql` and user_id = ${userId}` : sql``;
  return sql.join(
    WATCHERS.map(
      ({ table, watching }) => sql`select symbol, exchange from ${table} where ${watching}${ofUser}`,
    ),
    sql` union `,
  );
}

/** Whether anyone watches the instrument whose `exchange` and `symbol` columns are given. */
export function isWatchedSql(exchange: SQL, symbol: SQL): SQL {
  return sql.join(
    WATCHERS.map(
      ({ table, watching }) =>
        sql`exists (select 1 from ${table} where exchange = ${exchange} and symbol = ${symbol} and ${watching})`,
    ),
    sql` or `,
  );
}
