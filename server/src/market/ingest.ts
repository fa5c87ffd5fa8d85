/**
 * Persists each tick batch: latest quotes in one statement, today's minute bars and the
 * daily close in one statement each. Idempotent, so several instances may ingest one batch.
 */
import type { TickBatch } from '@app/common/market/tick-batch';
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';

const MINUTE = 60_000;
const IST_OFFSET_MS = 330 * 60_000;

/** Midnight IST of the day `at` falls in, as a UTC instant. */
export function istDayStart(at: number): Date {
  return new Date(Math.floor((at + IST_OFFSET_MS) / 86_400_000) * 86_400_000 - IST_OFFSET_MS);
}

export async function ingestTickBatch(db: Executor, batch: TickBatch): Promise<void> {
  if (batch.quotes.length === 0) return;
  const q = batch.quotes;
  const quoteRows = sql.join(
    q.map(
      (x) =>
        sql`(${x.exchange}, ${x.symbol}, ${x.ltp}, ${x.prevClose}, ${x.change}, ${x.changePercent}, ${new Date(x.asOf).toISOString()}::timestamptz, ${x.stale ?? false})`,
    ),
    sql`, `,
  );
  await db.execute(sql`
    insert into quotes (exchange, symbol, ltp, prev_close, change, change_percent, as_of, stale)
    values ${quoteRows}
    on conflict (exchange, symbol) do update set
      ltp = excluded.ltp, prev_close = excluded.prev_close, change = excluded.change,
      change_percent = excluded.change_percent, as_of = excluded.as_of, stale = excluded.stale,
      updated_at = now()
    where quotes.as_of <= excluded.as_of`);

  const fresh = q.filter((x) => !x.stale);
  if (fresh.length === 0) return;
  const bars = (interval: '1m' | '1d', bucketOf: (asOf: number) => Date) =>
    sql.join(
      fresh.map(
        (x) =>
          sql`(${x.exchange}, ${x.symbol}, ${interval}, ${bucketOf(x.asOf).toISOString()}::timestamptz, ${x.ltp}, ${x.ltp}, ${x.ltp}, ${x.ltp})`,
      ),
      sql`, `,
    );
  const upsertBars = (values: ReturnType<typeof bars>) => sql`
    insert into price_bars (exchange, symbol, interval, bucket, open, high, low, close)
    values ${values}
    on conflict (exchange, symbol, interval, bucket) do update set
      high = greatest(price_bars.high, excluded.high),
      low = least(price_bars.low, excluded.low),
      close = excluded.close`;
  await db.execute(upsertBars(bars('1m', (asOf) => new Date(Math.floor(asOf / MINUTE) * MINUTE))));
  await db.execute(upsertBars(bars('1d', istDayStart)));
}

/** Minute bars older than this many days are dropped by the daily clean-up. */
export const MINUTE_BAR_RETENTION_DAYS = 7;

export async function pruneMinuteBars(db: Executor, now = Date.now()): Promise<void> {
  const cutoff = new Date(now - MINUTE_BAR_RETENTION_DAYS * 86_400_000).toISOString();
  await db.execute(sql`delete from price_bars where interval = '1m' and bucket < ${cutoff}::timestamptz`);
}
