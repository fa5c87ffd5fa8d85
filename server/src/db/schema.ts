/**
 * The whole data model (docs/ARCHITECTURE.md, db/). Money is NUMERIC, times are timestamptz.
 * Generate a migration after a change: `npm run db:generate`; never edit a landed one.
 */
export * from './schema/users.ts';
export * from './schema/holdings.ts';
export * from './schema/market.ts';
export * from './schema/rules.ts';
export * from './schema/deliveries.ts';
export * from './schema/corporate-actions.ts';
export * from './schema/history.ts';
