/** Exit rules, one-off price alerts, and the History of what fired. */
import { TRIGGER_TYPES, VALUE_TYPES } from '@app/common/rules/types';
import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt, money, tstz, instrument } from './columns.ts';
import { brokerAccounts } from './holdings.ts';
import { ownerId } from './users.ts';

export const positionRules = pgTable(
  'position_rules',
  {
    id: id(),
    userId: ownerId(),
    ...instrument(),
    ruleName: text('rule_name').notNull(),
    ruleScope: text('rule_scope', { enum: ['all_holdings', 'specific_account'] }).notNull(),
    targetAccountId: uuid('target_account_id').references(() => brokerAccounts.id, { onDelete: 'cascade' }),
    actionType: text('action_type', { enum: ['ALERT', 'SELL'] }).notNull(),
    triggerType: text('trigger_type', { enum: TRIGGER_TYPES }).notNull(),
    triggerValue: money('trigger_value').notNull(),
    valueType: text('value_type', { enum: VALUE_TYPES }).notNull(),
    /** What the trigger is measured from on every (re-)arming: the latest quote or the buy price. */
    reference: text('reference', { enum: ['current', 'buy_price'] })
      .notNull()
      .default('current'),
    referencePrice: money('reference_price').notNull(),
    peakPrice: money('peak_price'),
    computedTriggerPrice: money('computed_trigger_price').notNull(),
    /** ATR stops (value_type ATR): the period n, and the ATR(n) the level was last set from, of that day's bar. */
    atrPeriod: integer('atr_period'),
    atrValue: money('atr_value'),
    atrAsOf: date('atr_as_of', { mode: 'string' }),
    /**
     * When the levels were last set from a price (created, edited, enabled from the price,
     * re-armed or raised to a new trailing peak); a corporate action adjusts only levels set
     * before its ex-date's session opened. Enabling with the level kept, and the adjustment
     * itself, leave it.
     */
    levelsSetAt: tstz('levels_set_at').notNull().defaultNow(),
    sellQuantityType: text('sell_quantity_type', { enum: ['ALL_REMAINING', 'PERCENTAGE', 'FIXED_AMOUNT'] })
      .notNull()
      .default('ALL_REMAINING'),
    sellQuantityValue: money('sell_quantity_value'),
    orderType: text('order_type', { enum: ['MARKET', 'LIMIT'] })
      .notNull()
      .default('MARKET'),
    limitPrice: money('limit_price'),
    isActive: boolean('is_active').notNull().default(true),
    /**
     * The broker whose sync paused the rule because its holding was sold there (docs/holdings.md#connect-a-broker):
     * such a rule is kept though it covers nothing, until the investor turns it on or deletes it.
     */
    pausedAtBroker: text('paused_at_broker'),
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
    userId: ownerId(),
    ...instrument(),
    direction: text('direction', { enum: ['above', 'below'] }).notNull(),
    price: money('price').notNull(),
    /** When the user last set the price (a corporate action adjusts only a price set before its ex-date opened). */
    priceSetAt: tstz('price_set_at').notNull().defaultNow(),
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
    userId: ownerId(),
    ruleId: uuid('rule_id').references(() => positionRules.id, { onDelete: 'set null' }),
    priceAlertId: uuid('price_alert_id').references(() => priceAlerts.id, { onDelete: 'set null' }),
    ...instrument(),
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
    /**
     * The notice this execution was told in: rules of one user on one instrument that fire
     * together make one notice (one email, one toast, one count against the quota), told by its
     * lead execution, whose id this is; null on rows older than notices, and on notices
     * (corporate actions, digests, re-armings) that are never grouped.
     */
    noticeId: uuid('notice_id'),
    readAt: tstz('read_at'),
    /** Dismissed from the in-app feed (the bell); History still lists it. */
    dismissedAt: tstz('dismissed_at'),
    executedAt: tstz('executed_at').notNull().defaultNow(),
  },
  (t) => [
    index('rule_executions_user_time_idx').on(t.userId, t.executedAt),
    // The other members of a notice, found from its lead when its emails settle.
    index('rule_executions_notice_members_idx')
      .on(t.noticeId)
      .where(sql`${t.noticeId} <> ${t.id}`),
  ],
);
