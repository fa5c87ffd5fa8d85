/**
 * Persists each tick batch: latest quotes in one statement, today's minute bars and the
 * daily close in one statement each. The batch owner stores each batch once (batch-owner.ts);
 * storing one again (an owner taking over, in batch order) is harmless: upserts, never older quotes.
 */
import { instrumentKey, type Quote, type TickBatch } from '@app/common/market/tick-batch';
import { sql } from 'drizzle-orm';
import { pgArray } from '../db/arrays.ts';
import type { Executor } from '../db/client.ts';

const MINUTE = 60_000;
const IST_OFFSET_MS = 330 * 60_000;

/** Midnight IST of the day `at` falls in, as a UTC instant. */
export function istDayStart(at: number): Date {
  return new Date(Math.floor((at + IST_OFFSET_MS) / 86_400_000) * 86_400_000 - IST_OFFSET_MS);
}

/**
 * One quote per instrument, the last one the batch gives winning: `insert … on conflict do
 * update` fails when one statement touches the same row twice.
 */
export function latestQuotePerInstrument(quotes: readonly Quote[]): Quote[] {
  const byInstrument = new Map<string, Quote>();
  for (const quote of quotes) {
    const key = instrumentKey(quote.exchange, quote.symbol);
    byInstrument.delete(key);
    byInstrument.set(key, quote);
  }
  return [...byInstrument.values()];
}

/**
 * Stores a batch: ten array parameters per statement, unnested into rows, rather than a
 * parameter per value (a 2,000-quote batch was a 16,000-parameter statement).
 */
export async function ingestTickBatch(db: Executor, batch: TickBatch): Promise<void> {
  if (batch.quotes.length === 0) return;
  const q = latestQuotePerInstrument(batch.quotes);
  await db.execute(sql`
    insert into quotes (exchange, symbol, ltp, prev_close, change, change_percent, as_of, stale,
      delay_minutes, unavailable)
    select * from unnest(
      ${pgArray(q.map((x) => x.exchange))}::text[], ${pgArray(q.map((x) => x.symbol))}::text[],
      ${pgArray(q.map((x) => x.ltp))}::numeric[], ${pgArray(q.map((x) => x.prevClose))}::numeric[],
      ${pgArray(q.map((x) => x.change))}::numeric[], ${pgArray(q.map((x) => x.changePercent))}::numeric[],
      ${pgArray(q.map((x) => new Date(x.asOf).toISOString()))}::timestamptz[],
      ${pgArray(q.map((x) => String(x.stale ?? false)))}::boolean[],
      ${pgArray(q.map((x) => x.delayMinutes))}::integer[],
      ${pgArray(q.map((x) => String(x.unavailable ?? false)))}::boolean[])
    on conflict (exchange, symbol) do update set
      ltp = excluded.ltp, prev_close = excluded.prev_close, change = excluded.change,
      change_percent = excluded.change_percent, as_of = excluded.as_of, stale = excluded.stale,
      delay_minutes = excluded.delay_minutes, unavailable = excluded.unavailable, updated_at = now()
    where quotes.as_of <= excluded.as_of`);

  const fresh = q.filter((x) => !x.stale);
  if (fresh.length === 0) return;
  const exchanges = pgArray(fresh.map((x) => x.exchange));
  const symbols = pgArray(fresh.map((x) => x.symbol));
  const prices = pgArray(fresh.map((x) => x.ltp));
  const upsertBars = (interval: '1m' | '1d', bucketOf: (asOf: number) => Date) => sql`
    insert into price_bars (exchange, symbol, interval, bucket, open, high, low, close)
    select b.exchange, b.symbol, ${interval}::text, b.bucket, b.price, b.price, b.price, b.price
    from unnest(${exchanges}::text[], ${symbols}::text[],
      ${pgArray(fresh.map((x) => bucketOf(x.asOf).toISOString()))}::timestamptz[], ${prices}::numeric[])
      as b(exchange, symbol, bucket, price)
    on conflict (exchange, symbol, interval, bucket) do update set
      high = greatest(price_bars.high, excluded.high),
      low = least(price_bars.low, excluded.low),
      close = excluded.close`;
  await db.execute(upsertBars('1m', (asOf) => new Date(Math.floor(asOf / MINUTE) * MINUTE)));
  await db.execute(upsertBars('1d', istDayStart));
}
