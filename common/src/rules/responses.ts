/**
 * What the rules and executions routes answer with (inside `{success, data}`); price alerts and
 * the bell's overview: api/price-alerts.ts.
 */
import type { ApiRuleAdjustment } from '../api/corporate-actions.ts';
import type { Channel, DeliveryStatus } from '../notifications/channels.ts';
import type { Exchange } from '../instruments/types.ts';
import type { AlertExecution } from '../realtime/events.ts';
import type { RearmMode } from './rearm.ts';
import type {
  ActionType,
  OrderType,
  ReferenceKind,
  RuleScope,
  SellQuantityType,
  SubscriptionTier,
  TriggerType,
  ValueType,
} from './types.ts';

/** A rule as listed: `status` says Active, Triggered (fired) or Inactive (disabled by the user). */
export type RuleStatus = 'ACTIVE' | 'TRIGGERED' | 'INACTIVE';

export interface ApiPositionRule {
  id: string;
  symbol: string;
  exchange: Exchange;
  rule_name: string;
  rule_scope: RuleScope;
  target_account_id: string | null;
  action_type: ActionType;
  trigger_type: TriggerType;
  trigger_value: number;
  value_type: ValueType;
  /** What every (re-)arming measures the trigger from: the latest quote or the holding's buy price. */
  reference: ReferenceKind;
  /** The price the trigger was measured from when the rule was (re-)armed. */
  reference_price: number;
  /** Trailing stops: the highest price since armed; null for other types. */
  peak_price: number | null;
  /** The live trigger level (rises with the peak for trailing stops). */
  computed_trigger_price: number;
  /** ATR stops: the period n of ATR(n); null for other value types. */
  atr_period: number | null;
  /** ATR stops: the ATR(n) the level was last set from (split-adjusted), and the day of its last bar. */
  atr_value: number | null;
  atr_as_of: string | null;
  /** ATR stops: why the level is where it is ('3 × ATR(22) = ₹84.20 below the high of ₹2,520.00'); else null. */
  level_reason: string | null;
  sell_quantity_type: SellQuantityType;
  sell_quantity_value: number | null;
  order_type: OrderType;
  limit_price: number | null;
  is_active: boolean;
  /** The broker a sync found the holding sold at: the rule was paused and kept ("Sold at Zerodha"). */
  paused_at_broker: string | null;
  status: RuleStatus;
  /** `never`: fires once; `after_recovery`: re-armed once the price recovers `rearm_percent` past its level. */
  rearm: RearmMode;
  rearm_percent: number;
  /** While a fired after_recovery rule waits: the price that re-arms it ('Re-arms at ₹X'); else null. */
  rearm_at: number | null;
  priority: number;
  execution_count: number;
  created_at: string;
  updated_at: string;
  last_triggered_at: string | null;
  /** The latest quote's price, or null before the first quote. */
  current_price: number | null;
  /** Bonuses and splits its levels were divided for, newest first ('adjusted for 1:1 bonus on 19 Dec 2025'). */
  adjustments: ApiRuleAdjustment[];
  /**
   * Why it did (not) fire: while the rule is active, the latest quote of its instrument, which the
   * engine checks every active rule against in each batch; null before the first quote and while
   * the rule is off (Inactive or Triggered).
   */
  last_price: number | null;
  /** When that price was quoted (ISO 8601), null with it. */
  last_checked_at: string | null;
  /**
   * How far the price must still move for the rule to fire, in % of `last_price` (2 decimals):
   * positive = not yet crossed, 0 = at the level, negative = past it. Null with `last_price`.
   */
  distance_percent: number | null;
}

/**
 * Where a notice went on one channel (docs/notifications.md#where-each-alert-went): one per outbox
 * row of the execution's notice.
 */
export interface ApiDelivery {
  channel: Channel;
  status: DeliveryStatus;
  /** For `failed`: why, in a sentence. */
  error?: string;
  /** When it reached that status (ISO 8601): the receipt's time, else when sent, else when queued. */
  at: string;
  /** The user's own name for where it went: a device, a Telegram @username, a masked address. */
  label: string;
}

/** One History row, and one feed item behind the bell (with `read`). */
export interface ApiRuleExecution extends AlertExecution {
  error_message: string | null;
  account_id: string | null;
  quantity_executed: number | null;
  broker_order_id: string | null;
  /** The rule's name (or the price alert's description), null once the rule is deleted. */
  rule_name: string | null;
  read: boolean;
  /**
   * Where its notice went, by channel then creation; a notice's other executions show the lead's.
   * Empty in the socket's `alert` push (the outbox rows are still queued then) and for a notice
   * told only in the app.
   */
  deliveries: ApiDelivery[];
}

/** GET /api/alerts/quota. `total` and `remaining` are null on the Advanced tier (unlimited). */
export interface ApiAlertQuota {
  used: number;
  total: number | null;
  remaining: number | null;
  subscription_tier: SubscriptionTier;
  /** When the count starts over: midnight IST on the 1st of next month. */
  resets_at: string;
}

/** GET /api/position-rules/current-prices: one entry per symbol that has a quote. */
export interface ApiCurrentPrice {
  ltp: number;
  prev_close: number | null;
  change_percent: number | null;
  as_of: string;
  exchange: Exchange;
}

/** A rule of a bulk save left out: no price yet, out of range, or its level already crossed. */
export interface ApiSkippedRule {
  symbol: string;
  exchange: Exchange;
  /** The account of an account-specific rule, null for all holdings. */
  target_account_id: string | null;
  /** 'The stop loss level ₹950.00 is at or above the current price ₹800.00; it would fire at once. …' */
  reason: string;
}

export interface ApiBulkCreateResult {
  created: number;
  rules: ApiPositionRule[];
  /** Rules not saved, each with its reason; the others were (none saved is a 400 instead). */
  skipped: ApiSkippedRule[];
}

export interface ApiBulkActionResult {
  action: 'enable' | 'disable' | 'delete';
  ids: string[];
  /** The rules after enable/disable; empty after delete. */
  rules: ApiPositionRule[];
}

export interface ApiExecutionsPage {
  executions: ApiRuleExecution[];
  total: number;
}

/** The most executions one GET /api/rule-executions/deliveries asks about (zod-free: History imports it). */
export const MAX_DELIVERY_IDS = 100;

/** GET /api/rule-executions/deliveries?ids=: each asked-for execution of the user's, by id. */
export interface ApiExecutionDeliveries {
  deliveries: Record<string, ApiDelivery[]>;
}
