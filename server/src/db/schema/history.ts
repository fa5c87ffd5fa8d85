/** Daily history: one bar per instrument and trading day, as the exchange printed it (docs/history.md). */
import { bigint, date, integer, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, instrument, tstz, updatedAt } from './columns.ts';

const price = (name: string) => numeric(name, { precision: 18, scale: 4, mode: 'string' }).notNull();

/**
 * Daily bars loaded from the exchanges' bhavcopy files (server/src/history). Unadjusted: a later
 * bonus or split is applied when the bars are read (common/src/history/adjust.ts), never written
 * back, so no file has to be loaded again.
 */
export const dailyBars = pgTable(
  'daily_bars',
  {
    ...instrument(),
    date: date('date', { mode: 'string' }).notNull(),
    open: price('open'),
    high: price('high'),
    low: price('low'),
    close: price('close'),
    volume: bigint('volume', { mode: 'number' }).notNull(),
    /** The file the bar was read from (`cm01APR2019bhav.csv`), or `yahoo`, or `quotes` (the day's own bar). */
    source: text('source').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.exchange, t.symbol, t.date] })],
);

/**
 * Each instrument whose history was asked of a vendor (history/backfill.ts): asked once, kept.
 * `done_at` set: answered, never asked again. Otherwise `next_attempt_at` is when it may be asked
 * (again): a lease while one instance asks, then the back-off after a failure.
 */
export const barBackfills = pgTable(
  'bar_backfills',
  {
    ...instrument(),
    /** The vendor asked (`yahoo`). */
    source: text('source').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: tstz('next_attempt_at').notNull(),
    doneAt: tstz('done_at'),
    /** Bars the answer gave, once done. */
    bars: integer('bars'),
    /** The last failure, in one sentence. */
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.exchange, t.symbol, t.source] })],
);
