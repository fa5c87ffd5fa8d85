/**
 * The whole data model (ARCHITECTURE §5). Money is NUMERIC, times are timestamptz.
 * Generate a migration after a change: `npm run db:generate`; never edit a landed one.
 */
import { EXCHANGES } from '@app/common/instruments/types';
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const id = () => uuid('id').primaryKey().defaultRandom();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const money = (name: string) => numeric(name, { precision: 18, scale: 4, mode: 'string' });
const tstz = (name: string) => timestamp(name, { withTimezone: true });

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
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    familyId: uuid('family_id').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    revokedAt: tstz('revoked_at'),
    rotatedAt: tstz('rotated_at'),
    replacedBy: uuid('replaced_by'),
    createdAt: createdAt(),
  },
  (t) => [index('refresh_tokens_family_idx').on(t.familyId), index('refresh_tokens_user_idx').on(t.userId)],
);

export const brokerAccounts = pgTable(
  'broker_accounts',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    brokerName: text('broker_name').notNull(),
    /** USER_ADDED for manual entry, CSV_IMPORT for uploads, API for future broker connections. */
    brokerType: text('broker_type').notNull(),
    accountLabel: text('account_label').notNull().default(''),
    accountStatus: text('account_status').notNull().default('ACTIVE'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // The manual account is found by its type, never by its name: an upload named "Manual" is
  // a broker account of its own (CSV_IMPORT) and cannot reach the holdings added by hand.
  (t) => [
    uniqueIndex('broker_accounts_user_type_name_label_uq').on(
      t.userId,
      t.brokerType,
      t.brokerName,
      t.accountLabel,
    ),
  ],
);

export const holdings = pgTable(
  'holdings',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    brokerAccountId: uuid('broker_account_id')
      .notNull()
      .references(() => brokerAccounts.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    exchange: text('exchange', { enum: EXCHANGES }).notNull(),
    isin: text('isin'),
    quantity: money('quantity').notNull(),
    averagePrice: money('average_price').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('holdings_user_account_symbol_uq').on(t.userId, t.brokerAccountId, t.symbol, t.exchange),
    index('holdings_instrument_idx').on(t.exchange, t.symbol),
  ],
);

export const instruments = pgTable(
  'instruments',
  {
    exchange: text('exchange', { enum: EXCHANGES }).notNull(),
    symbol: text('symbol').notNull(),
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
    exchange: text('exchange', { enum: EXCHANGES }).notNull(),
    symbol: text('symbol').notNull(),
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
    exchange: text('exchange', { enum: EXCHANGES }).notNull(),
    symbol: text('symbol').notNull(),
    interval: text('interval', { enum: ['1m', '1d'] }).notNull(),
    bucket: tstz('bucket').notNull(),
    open: money('open').notNull(),
    high: money('high').notNull(),
    low: money('low').notNull(),
    close: money('close').notNull(),
  },
  (t) => [primaryKey({ columns: [t.exchange, t.symbol, t.interval, t.bucket] })],
);

export const positionRules = pgTable(
  'position_rules',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    exchange: text('exchange', { enum: EXCHANGES }).notNull(),
    ruleName: text('rule_name').notNull(),
    ruleScope: text('rule_scope', { enum: ['all_holdings', 'specific_account'] }).notNull(),
    targetAccountId: uuid('target_account_id').references(() => brokerAccounts.id, { onDelete: 'cascade' }),
    actionType: text('action_type', { enum: ['ALERT', 'SELL'] }).notNull(),
    triggerType: text('trigger_type', {
      enum: ['FIXED_STOP_LOSS', 'TRAILING_STOP_LOSS', 'TAKE_PROFIT'],
    }).notNull(),
    triggerValue: money('trigger_value').notNull(),
    valueType: text('value_type', { enum: ['PERCENT', 'ABSOLUTE'] }).notNull(),
    /** What the trigger is measured from on every (re-)arming: the latest quote or the buy price. */
    reference: text('reference', { enum: ['current', 'buy_price'] })
      .notNull()
      .default('current'),
    referencePrice: money('reference_price').notNull(),
    peakPrice: money('peak_price'),
    computedTriggerPrice: money('computed_trigger_price').notNull(),
    sellQuantityType: text('sell_quantity_type', { enum: ['ALL_REMAINING', 'PERCENTAGE', 'FIXED_AMOUNT'] })
      .notNull()
      .default('ALL_REMAINING'),
    sellQuantityValue: money('sell_quantity_value'),
    orderType: text('order_type', { enum: ['MARKET', 'LIMIT'] })
      .notNull()
      .default('MARKET'),
    limitPrice: money('limit_price'),
    isActive: boolean('is_active').notNull().default(true),
    /** `after_recovery`: after firing, re-armed once the price recovers rearm_percent past its level. */
    rearm: text('rearm', { enum: ['never', 'after_recovery'] })
      .notNull()
      .default('never'),
    rearmPercent: money('rearm_percent').notNull().default('3'),
    /** Set while a fired after_recovery rule waits: the price that re-arms it (is_active is false). */
    rearmAt: money('rearm_at'),
    priority: integer('priority').notNull().default(1),
    executionCount: integer('execution_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastTriggeredAt: tstz('last_triggered_at'),
  },
  (t) => [
    index('position_rules_user_idx').on(t.userId),
    index('position_rules_active_instrument_idx')
      .on(t.exchange, t.symbol)
      .where(sql`${t.isActive}`),
  ],
);

/** One-off price alerts ("tell me when INFY crosses 1,600"), held or not. */
export const priceAlerts = pgTable(
  'price_alerts',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    exchange: text('exchange', { enum: EXCHANGES }).notNull(),
    direction: text('direction', { enum: ['above', 'below'] }).notNull(),
    price: money('price').notNull(),
    note: text('note'),
    isActive: boolean('is_active').notNull().default(true),
    triggeredAt: tstz('triggered_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('price_alerts_user_idx').on(t.userId)],
);

export const ruleExecutions = pgTable(
  'rule_executions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ruleId: uuid('rule_id').references(() => positionRules.id, { onDelete: 'set null' }),
    priceAlertId: uuid('price_alert_id').references(() => priceAlerts.id, { onDelete: 'set null' }),
    symbol: text('symbol').notNull(),
    exchange: text('exchange', { enum: EXCHANGES }).notNull(),
    triggerType: text('trigger_type').notNull(),
    /** PENDING until deliveries finish, then SUCCESS or FAILED. */
    status: text('status').notNull().default('PENDING'),
    executionType: text('execution_type').notNull().default('ALERT'),
    triggerPrice: money('trigger_price').notNull(),
    executionPrice: money('execution_price').notNull(),
    accountId: uuid('account_id'),
    quantityExecuted: money('quantity_executed'),
    brokerOrderId: text('broker_order_id'),
    errorMessage: text('error_message'),
    message: text('message'),
    overQuota: boolean('over_quota').notNull().default(false),
    readAt: tstz('read_at'),
    /** Dismissed from the in-app feed (the bell); History still lists it. */
    dismissedAt: tstz('dismissed_at'),
    executedAt: tstz('executed_at').notNull().defaultNow(),
  },
  (t) => [index('rule_executions_user_time_idx').on(t.userId, t.executedAt)],
);

export const notificationEndpoints = pgTable(
  'notification_endpoints',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
 * Corporate actions read from NSE's `bc` file (server/src/corporate-actions): bonuses and
 * splits adjust levels on their ex-date, once (`applied_at` is the claim); rights, demergers
 * and buy-backs are notices.
 */
export const corporateActions = pgTable(
  'corporate_actions',
  {
    id: id(),
    exchange: text('exchange', { enum: EXCHANGES }).notNull(),
    symbol: text('symbol').notNull(),
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
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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

/**
 * The evening digests (server/src/digest): one row per user and IST day, inserted in the
 * transaction that writes the digest's History row and outbox rows, so the primary key makes
 * it exactly once across instances and restarts. `content` is what the email shows, taken at
 * the time (a retry the next morning still sends the evening's numbers).
 */
export const digests = pgTable(
  'digests',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
