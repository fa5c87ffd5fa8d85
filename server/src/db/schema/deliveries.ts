/** Where alerts go (endpoints), the alert outbox, evening digests, and demo mail. */
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { id, createdAt, tstz } from './columns.ts';
import { ruleExecutions } from './rules.ts';
import { ownerId } from './users.ts';

export const notificationEndpoints = pgTable(
  'notification_endpoints',
  {
    id: id(),
    userId: ownerId(),
    type: text('type', { enum: ['email', 'whatsapp'] }).notNull(),
    value: text('value').notNull(),
    /** Lower-cased value, for the case-insensitive uniqueness rule. */
    valueKey: text('value_key').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    verificationStatus: text('verification_status', { enum: ['pending', 'verified'] })
      .notNull()
      .default('pending'),
    tokenHash: text('token_hash'),
    tokenExpiresAt: tstz('token_expires_at'),
    lastSentAt: tstz('last_sent_at'),
    verifiedAt: tstz('verified_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('notification_endpoints_user_type_value_uq').on(t.userId, t.type, t.valueKey),
    uniqueIndex('notification_endpoints_token_uq').on(t.tokenHash),
  ],
);

/** The alert outbox: one row per execution × endpoint, written in the trigger's transaction. */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: id(),
    executionId: uuid('execution_id')
      .notNull()
      .references(() => ruleExecutions.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id').references(() => notificationEndpoints.id, { onDelete: 'set null' }),
    channel: text('channel', { enum: ['email', 'whatsapp'] }).notNull(),
    destination: text('destination').notNull(),
    status: text('status', { enum: ['PENDING', 'SENDING', 'SENT', 'FAILED'] })
      .notNull()
      .default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: tstz('next_attempt_at').notNull().defaultNow(),
    lockedUntil: tstz('locked_until'),
    lastError: text('last_error'),
    sentAt: tstz('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('alert_deliveries_execution_endpoint_uq').on(t.executionId, t.endpointId),
    index('alert_deliveries_due_idx').on(t.status, t.nextAttemptAt),
  ],
);

/**
 * The evening digests (server/src/digest): one row per user and IST day, inserted in the
 * transaction that writes the digest's History row and outbox rows, so the primary key makes
 * it exactly once across instances and restarts. `content` is what the email shows, taken at
 * the time (a retry the next morning still sends the evening's numbers).
 */
export const digests = pgTable(
  'digests',
  {
    userId: ownerId(),
    day: date('day', { mode: 'string' }).notNull(),
    executionId: uuid('execution_id').references(() => ruleExecutions.id, { onDelete: 'set null' }),
    content: jsonb('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] }), index('digests_execution_idx').on(t.executionId)],
);

/** Mail captured in demo mode, listed at GET /api/dev/outbox; shared by every instance. */
export const devOutbox = pgTable('dev_outbox', {
  id: id(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  sentAt: tstz('sent_at').notNull().defaultNow(),
});
