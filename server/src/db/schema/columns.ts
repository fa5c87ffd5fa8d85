/** The column kinds every table uses: ids, timestamps, money, an instrument. */
import { EXCHANGES } from '@app/common/instruments/types';
import { numeric, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const id = () => uuid('id').primaryKey().defaultRandom();
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
export const money = (name: string) => numeric(name, { precision: 18, scale: 4, mode: 'string' });
export const tstz = (name: string) => timestamp(name, { withTimezone: true });
/** The instrument a row is about (the key the quotes and the instrument master use). */
export const instrument = () => ({
  exchange: text('exchange', { enum: EXCHANGES }).notNull(),
  symbol: text('symbol').notNull(),
});
