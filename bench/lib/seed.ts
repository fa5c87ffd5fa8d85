/**
 * Bulk seeding inside a server process (it owns the database; PGlite has no other door):
 * thousands of users with their holdings in three set-based statements, and the naive
 * one-row-per-statement insert that B5 compares the import against.
 */
import { eq, sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../server/src/db/client.ts';
import { brokerAccounts, holdings } from '../../server/src/db/schema.ts';

export interface SeedUsersPlan {
  /** Distinguishes this batch of users (letters and digits only). */
  tag: string;
  count: number;
  /** Holdings per user, chosen from `symbols` by heldIndexes (market.ts). */
  perUser: number;
  symbols: readonly string[];
}

export interface SeededUser {
  id: string;
  /** The user's position in the plan: what heldIndexes takes. */
  ordinal: number;
}

const symbolTable = (symbols: readonly string[]) =>
  sql`unnest(string_to_array(${symbols.join(',')}::text, ',')) with ordinality as s(sym, ord)`;

/**
 * Users `<tag>-0` … `<tag>-<count-1>`, each signed in once, one broker account each, `perUser`
 * holdings each.
 */
export async function seedUsers(db: Database, plan: SeedUsersPlan): Promise<SeededUser[]> {
  if (!/^[a-z0-9]+$/i.test(plan.tag)) throw new Error(`bad seed tag ${plan.tag}`);
  const n = plan.symbols.length;
  if (plan.perUser > 0 && (n % 101 === 0 || n % 37 === 0 || plan.perUser > n))
    throw new Error(`heldIndexes needs 37 and 101 prime to the symbol count (${n}) and perUser ≤ it`);
  const like = `${plan.tag}-%`;
  const rows = await queryRows<{ id: string; google_sub: string }>(
    db,
    sql`insert into users (google_sub, email, name, subscription_tier)
      select ${plan.tag}::text || '-' || g, ${plan.tag}::text || '-' || g || '@bench.example',
        'Bench investor ' || g, 'advanced'
      from generate_series(0, ${plan.count - 1}::int) g
      returning id, google_sub`,
  );
  await db.execute(sql`insert into broker_accounts (user_id, broker_name, broker_type, account_label)
    select id, 'Zerodha', 'CSV_IMPORT', '' from users where google_sub like ${like}`);
  // Signed in once: a refresh-token family whose id is the user's (the session of tokenFor).
  await db.execute(sql`insert into refresh_tokens (user_id, family_id, token_hash, expires_at)
    select id, id, 'bench-' || id, now() + interval '30 days' from users where google_sub like ${like}`);
  if (plan.perUser > 0) {
    await db.execute(sql`insert into holdings (user_id, broker_account_id, symbol, exchange, quantity, average_price)
      select u.id, a.id, s.sym, 'NSE', 10, 100
      from users u
      join broker_accounts a on a.user_id = u.id
      cross join generate_series(0, ${plan.perUser - 1}::int) k
      join ${symbolTable(plan.symbols)}
        on s.ord - 1 = (split_part(u.google_sub, '-', 2)::int * 37 + k * 101) % ${plan.symbols.length}::int
      where u.google_sub like ${like}`);
  }
  return rows
    .map((r) => ({ id: r.id, ordinal: Number(r.google_sub.split('-')[1]) }))
    .sort((a, b) => a.ordinal - b.ordinal);
}

/** A latest quote and a master entry for every symbol, as a running system would have. */
export async function seedQuotes(db: Database, symbols: readonly string[]): Promise<void> {
  await db.execute(sql`insert into quotes (exchange, symbol, ltp, prev_close, change, change_percent, as_of)
    select 'NSE', s.sym, 100 + s.ord, 99 + s.ord, 1, round(100.0 / (99 + s.ord), 2), now()
    from ${symbolTable(symbols)} on conflict do nothing`);
  await db.execute(sql`insert into instruments (exchange, symbol, name, yahoo_symbol)
    select 'NSE', s.sym, initcap(s.sym) || ' Limited', s.sym || '.NS'
    from ${symbolTable(symbols)} on conflict do nothing`);
}

export interface HoldingRow {
  symbol: string;
  quantity: number;
  averagePrice: number;
}

/** B5's baseline: the same rows, one INSERT each, in one transaction. Returns milliseconds. */
export async function insertRowByRow(db: Database, userId: string, rows: readonly HoldingRow[]) {
  const started = performance.now();
  await db.transaction(async (tx) => {
    const [account] = await tx
      .insert(brokerAccounts)
      .values({ userId, brokerName: 'Zerodha', accountLabel: 'row-by-row', brokerType: 'CSV_IMPORT' })
      .returning({ id: brokerAccounts.id });
    for (const row of rows) {
      await tx.insert(holdings).values({
        userId,
        brokerAccountId: account!.id,
        symbol: row.symbol,
        exchange: 'NSE',
        quantity: String(row.quantity),
        averagePrice: row.averagePrice.toFixed(4),
      });
    }
  });
  return performance.now() - started;
}

export async function countHoldings(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(holdings)
    .where(eq(holdings.userId, userId));
  return row?.n ?? 0;
}
