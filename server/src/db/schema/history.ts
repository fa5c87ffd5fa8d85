/** Daily history: one bar per instrument and trading day, as the exchange printed it (docs/history.md). */
import { bigint, date, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instrument, updatedAt } from './columns.ts';

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
    /** The file the bar was read from (`cm01APR2019bhav.csv`). */
    source: text('source').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.exchange, t.symbol, t.date] })],
);
