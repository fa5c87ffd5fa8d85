/** The instrument master, symbol changes, latest quotes and minute bars. */
import { EXCHANGES } from '@app/common/instruments/types';
import { boolean, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { updatedAt, money, tstz, instrument } from './columns.ts';

export const instruments = pgTable(
  'instruments',
  {
    ...instrument(),
    name: text('name').notNull(),
    isin: text('isin'),
    series: text('series'),
    /** BSE scrip code (numeric security code), when known. */
    scripCode: text('scrip_code'),
    yahooSymbol: text('yahoo_symbol').notNull(),
    kind: text('kind', { enum: ['EQUITY', 'ETF', 'SME'] })
      .notNull()
      .default('EQUITY'),
    source: text('source').notNull().default('starter'),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.exchange, t.symbol] }), index('instruments_isin_idx').on(t.isin)],
);

export const symbolRenames = pgTable(
  'symbol_renames',
  {
    exchange: text('exchange', { enum: EXCHANGES }).notNull(),
    oldSymbol: text('old_symbol').notNull(),
    newSymbol: text('new_symbol').notNull(),
    companyName: text('company_name'),
    changedOn: text('changed_on'),
  },
  (t) => [primaryKey({ columns: [t.exchange, t.oldSymbol] })],
);

export const quotes = pgTable(
  'quotes',
  {
    ...instrument(),
    ltp: money('ltp').notNull(),
    prevClose: money('prev_close'),
    change: money('change'),
    changePercent: money('change_percent'),
    asOf: tstz('as_of').notNull(),
    /** The source's delay in minutes (Yahoo: 15). */
    delayMinutes: integer('delay_minutes').notNull().default(0),
    stale: boolean('stale').notNull().default(false),
    /** The source has stopped pricing it (delisted?): `ltp` is its last known price. */
    unavailable: boolean('unavailable').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.exchange, t.symbol] })],
);

export const priceBars = pgTable(
  'price_bars',
  {
    ...instrument(),
    interval: text('interval', { enum: ['1m', '1d'] }).notNull(),
    bucket: tstz('bucket').notNull(),
    open: money('open').notNull(),
    high: money('high').notNull(),
    low: money('low').notNull(),
    close: money('close').notNull(),
  },
  (t) => [primaryKey({ columns: [t.exchange, t.symbol, t.interval, t.bucket] })],
);
