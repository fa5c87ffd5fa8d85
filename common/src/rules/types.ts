/** The vocabulary of position rules and price alerts (docs/exit-rules.md). */
import type { Exchange } from '../instruments/types.ts';

/** The kinds of rules and what each one is: kinds.ts. */
export { TRIGGER_TYPES, type ExecutionTriggerType, type TriggerType } from './kinds.ts';

/** `PRICE`: the value is the level itself; `PERCENT` and `ABSOLUTE` measure it from a price (value-types.ts). */
export const VALUE_TYPES = ['PERCENT', 'ABSOLUTE', 'PRICE', 'ATR'] as const;
export type ValueType = (typeof VALUE_TYPES)[number];

export const ACTION_TYPES = ['ALERT', 'SELL'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const RULE_SCOPES = ['all_holdings', 'specific_account'] as const;
export type RuleScope = (typeof RULE_SCOPES)[number];

export const SELL_QUANTITY_TYPES = ['ALL_REMAINING', 'PERCENTAGE', 'FIXED_AMOUNT'] as const;
export type SellQuantityType = (typeof SELL_QUANTITY_TYPES)[number];

export const ORDER_TYPES = ['MARKET', 'LIMIT'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

export const ALERT_DIRECTIONS = ['above', 'below'] as const;
export type AlertDirection = (typeof ALERT_DIRECTIONS)[number];

/** Which price a new rule's trigger is computed from: the latest quote (default) or the buy price. */
export const REFERENCE_KINDS = ['current', 'buy_price'] as const;
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];

export const SUBSCRIPTION_TIERS = ['basic', 'advanced'] as const;
export type SubscriptionTier = (typeof SUBSCRIPTION_TIERS)[number];

export type { Exchange };
