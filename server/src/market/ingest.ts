/**
 * Persists tick batches: latest quotes in one statement, today's minute and day bars in another.
 * The batch owner stores each batch once (batch-owner.ts), at once or merged with the next ones
 * (store-pace.ts); storing one again (an owner taking over, in batch order) is harmless: upserts,
 * never older quotes.
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

/** A bar being built from ticks: the first price, the extremes, the last price, and their times. */
interface BarDraft {
  exchange: string;
  symbol: string;
  interval: '1m' | '1d';
  bucket: Date;
  open: number;
  high: number;
  low: number;
  close: number;
  firstAt: number;
  lastAt: number;
}

/**
 * What a run of tick batches leaves to store: each instrument's latest quote, and its minute and
 * day bars built from every fresh tick. One batch, or several merged (market/store-pace.ts: a
 * streaming feed's half-second batches stored every few seconds).
 */
export interface MarketWrites {
  quotes: Map<string, Quote>;
  bars: Map<string, BarDraft>;
}

export const emptyWrites = (): MarketWrites => ({ quotes: new Map(), bars: new Map() });

function addTick(writes: MarketWrites, quote: Quote, interval: BarDraft['interval'], bucket: Date): void {
  const key = `${interval}|${instrumentKey(quote.exchange, quote.symbol)}|${bucket.getTime()}`;
  const bar = writes.bars.get(key);
  const { ltp: price, asOf } = quote;
  if (!bar) {
    writes.bars.set(key, {
      exchange: quote.exchange,
      symbol: quote.symbol,
      interval,
      bucket,
      open: price,
      high: price,
      low: price,
      close: price,
      firstAt: asOf,
      lastAt: asOf,
    });
    return;
  }
  bar.high = Math.max(bar.high, price);
  bar.low = Math.min(bar.low, price);
  if (asOf < bar.firstAt) [bar.open, bar.firstAt] = [price, asOf];
  if (asOf >= bar.lastAt) [bar.close, bar.lastAt] = [price, asOf];
}

/**
 * Adds a batch: per instrument the latest quote wins (the last of a batch, or a later time); each
 * fresh quote is a tick of its minute and day bars.
 */
export function addBatch(writes: MarketWrites, batch: TickBatch): void {
  for (const quote of batch.quotes) {
    const key = instrumentKey(quote.exchange, quote.symbol);
    const held = writes.quotes.get(key);
    if (!held || held.asOf <= quote.asOf) writes.quotes.set(key, quote);
    if (quote.stale) continue;
    addTick(writes, quote, '1m', new Date(Math.floor(quote.asOf / MINUTE) * MINUTE));
    addTick(writes, quote, '1d', istDayStart(quote.asOf));
  }
}

/**
 * Stores what was added: ten array parameters per statement, unnested into rows, rather than a
 * parameter per value (a 2,000-quote batch was a 16,000-parameter statement). Never an older
 * quote over a newer one; a stored bar keeps its open and widens to the new extremes.
 */
export async function storeWrites(db: Executor, writes: MarketWrites): Promise<void> {
  const q = [...writes.quotes.values()];
  if (q.length === 0) return;
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

  const bars = [...writes.bars.values()];
  if (bars.length === 0) return;
  await db.execute(sql`
    insert into price_bars (exchange, symbol, interval, bucket, open, high, low, close)
    select * from unnest(${pgArray(bars.map((b) => b.exchange))}::text[],
      ${pgArray(bars.map((b) => b.symbol))}::text[], ${pgArray(bars.map((b) => b.interval))}::text[],
      ${pgArray(bars.map((b) => b.bucket.toISOString()))}::timestamptz[],
      ${pgArray(bars.map((b) => b.open))}::numeric[], ${pgArray(bars.map((b) => b.high))}::numeric[],
      ${pgArray(bars.map((b) => b.low))}::numeric[], ${pgArray(bars.map((b) => b.close))}::numeric[])
    on conflict (exchange, symbol, interval, bucket) do update set
      high = greatest(price_bars.high, excluded.high),
      low = least(price_bars.low, excluded.low),
      close = excluded.close`);
}
