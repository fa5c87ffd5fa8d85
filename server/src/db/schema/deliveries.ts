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
import { CHANNELS, NOTICE_KINDS, type NoticeKind } from '@app/common/notifications/channels';
import { sql } from 'drizzle-orm';
import { id, createdAt, tstz } from './columns.ts';
import { ruleExecutions } from './rules.ts';
import { ownerId } from './users.ts';

export const notificationEndpoints = pgTable(
  'notification_endpoints',
  {
    id: id(),
    userId: ownerId(),
    type: text('type', { enum: CHANNELS }).notNull(),
    /**
     * Where it goes: an email address, a push subscription's endpoint URL, a Telegram chat id
     * (pending: the link's hash), a WhatsApp number in E.164.
     */
    value: text('value').notNull(),
    /** What the user sees it as: a device ("Chrome on Android"), a Telegram @username. */
    label: text('label'),
    /** What the channel needs beyond `value`: a push subscription's `keys` ({p256dh, auth}). */
    meta: jsonb('meta').$type<Record<string, unknown>>(),
    /** The kinds of notice it receives (Settings: alerts, evening digest, corporate actions). */
    notices: text('notices', { enum: NOTICE_KINDS })
      .array()
      .$type<NoticeKind[]>()
      .notNull()
      .default(sql`'{alert,digest,corporate_action}'::text[]`),
    /** Why it was turned off by the channel (the bot was blocked, the subscription expired). */
    inactiveReason: text('inactive_reason'),
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
    channel: text('channel', { enum: CHANNELS }).notNull(),
    destination: text('destination').notNull(),
    /**
     * PENDING and SENDING (queued), then SENT (the provider took it: email, Telegram) or ACCEPTED
     * (a push service or WhatsApp will deliver it), DELIVERED and READ (WhatsApp's receipts), or
     * FAILED.
     */
    status: text('status', {
      enum: ['PENDING', 'SENDING', 'SENT', 'ACCEPTED', 'DELIVERED', 'READ', 'FAILED'],
    })
      .notNull()
      .default('PENDING'),
    /** The provider's id of the message (a wamid, a Telegram message_id, a push Location). */
    providerMessageId: text('provider_message_id'),
    /** When the status last changed (a receipt's own time for WhatsApp's). */
    statusAt: tstz('status_at'),
    /** The email sent because every phone channel of this notice failed for good (its first failed row). */
    fallbackOf: uuid('fallback_of'),
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
    index('alert_deliveries_provider_message_idx')
      .on(t.providerMessageId)
      .where(sql`provider_message_id is not null`),
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
  /** Extra headers as sent (List-Unsubscribe). */
  headers: jsonb('headers').$type<Record<string, string>>(),
  sentAt: tstz('sent_at').notNull().defaultNow(),
});
