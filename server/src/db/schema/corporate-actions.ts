/** Bonuses and splits from the exchange, and what each changed. */
import { sql } from 'drizzle-orm';
import { date, index, integer, jsonb, numeric, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, tstz, instrument } from './columns.ts';
import { ownerId } from './users.ts';

/**
 * Corporate actions read from NSE's `bc` file (server/src/corporate-actions): bonuses and
 * splits adjust levels on their ex-date, once (`applied_at` is the claim); rights, demergers
 * and buy-backs are notices.
 */
export const corporateActions = pgTable(
  'corporate_actions',
  {
    id: id(),
    ...instrument(),
    security: text('security').notNull().default(''),
    kind: text('kind', { enum: ['BONUS', 'SPLIT', 'RIGHTS', 'DEMERGER', 'BUYBACK'] }).notNull(),
    /** Levels are divided by it, manual quantities multiplied; null for notices. */
    ratio: numeric('ratio', { precision: 18, scale: 8, mode: 'string' }),
    purpose: text('purpose').notNull(),
    exDate: date('ex_date', { mode: 'string' }).notNull(),
    recordDate: date('record_date', { mode: 'string' }),
    /** The file (or URL) it was read from. */
    source: text('source').notNull(),
    createdAt: createdAt(),
    /** When its adjustments were made (bonus and split); set by the one instance that claims it. */
    appliedAt: tstz('applied_at'),
    /** What the adjustment changed, counted when applied. */
    adjustedRules: integer('adjusted_rules'),
    adjustedAlerts: integer('adjusted_alerts'),
    adjustedHoldings: integer('adjusted_holdings'),
    notifiedUsers: integer('notified_users'),
    /** Attempts to apply it that failed (each rolled back whole); the other actions go on. */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    /** After a failure, when it is tried again, alone (back-off: corporate-actions/retry.ts). */
    retryAt: tstz('retry_at'),
    /** The last failure's error, for the operator (logged with the action too). */
    lastFailure: text('last_failure'),
  },
  (t) => [
    uniqueIndex('corporate_actions_instrument_date_kind_uq').on(t.exchange, t.symbol, t.exDate, t.kind),
    index('corporate_actions_due_idx')
      .on(t.exDate)
      .where(sql`${t.appliedAt} is null and ${t.ratio} is not null`),
  ],
);

/** What one corporate action changed: each rule, price alert and manual holding, before and after. */
export const corporateActionAdjustments = pgTable(
  'corporate_action_adjustments',
  {
    id: id(),
    actionId: uuid('action_id')
      .notNull()
      .references(() => corporateActions.id, { onDelete: 'cascade' }),
    userId: ownerId(),
    target: text('target', { enum: ['rule', 'price_alert', 'holding'] }).notNull(),
    /** The rule, price alert or holding (not a foreign key: it may be deleted later). */
    targetId: uuid('target_id').notNull(),
    before: jsonb('before').notNull(),
    after: jsonb('after').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('corporate_action_adjustments_target_uq').on(t.actionId, t.target, t.targetId),
    index('corporate_action_adjustments_target_idx').on(t.targetId),
  ],
);
