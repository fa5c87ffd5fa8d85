/** The people who sign in, their refresh tokens, and their page views. */
import { boolean, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt, tstz } from './columns.ts';

export const users = pgTable('users', {
  id: id(),
  googleSub: text('google_sub').notNull().unique(),
  email: text('email').notNull(),
  name: text('name').notNull(),
  picture: text('picture'),
  subscriptionTier: text('subscription_tier', { enum: ['basic', 'advanced'] })
    .notNull()
    .default('basic'),
  tokenVersion: integer('token_version').notNull().default(0),
  /** Settings: new holdings without a rule get the Price Guard rule (GET/PUT /api/settings). */
  protectNewHoldings: boolean('protect_new_holdings').notNull().default(false),
  /** Settings: the evening digest email after the close (GET/PUT /api/settings). */
  eveningDigest: boolean('evening_digest').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  lastLoginAt: tstz('last_login_at'),
});

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    userId: ownerId(),
    tokenHash: text('token_hash').notNull().unique(),
    familyId: uuid('family_id').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    revokedAt: tstz('revoked_at'),
    rotatedAt: tstz('rotated_at'),
    replacedBy: uuid('replaced_by'),
    /** The one token issued for a reuse inside the grace window (a second tab refreshing at once). */
    graceSiblingId: uuid('grace_sibling_id'),
    createdAt: createdAt(),
  },
  (t) => [index('refresh_tokens_family_idx').on(t.familyId), index('refresh_tokens_user_idx').on(t.userId)],
);

/** First-party page views (POST /api/events); no third-party scripts. */
export const pageEvents = pgTable(
  'page_events',
  {
    id: id(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull().default('page_view'),
    path: text('path').notNull(),
    referrer: text('referrer'),
    props: jsonb('props'),
    createdAt: createdAt(),
  },
  (t) => [index('page_events_time_idx').on(t.createdAt)],
);

/** The user a row belongs to; the row goes when the user does. */
export function ownerId() {
  return uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
}

/**
 * The last start of each daily maintenance job (server/src/retention): one conditional upsert
 * claims the day's run, so of several instances exactly one runs it.
 */
export const maintenanceRuns = pgTable('maintenance_runs', {
  job: text('job').primaryKey(),
  startedAt: tstz('started_at').notNull(),
});
