/**
 * Unsaved rule drafts of the Holdings page (docs/exit-rules.md: drafts and Save All), pure and
 * unit-tested: one draft per account row, its live preview, the request bodies, the rows Price
 * Guard fills, and the sentences a failed save shows.
 */
import type { Exchange } from '@app/common/instruments/types';
import { instrumentKey } from '@app/common/market/tick-batch';
import type { AggregatedHolding } from '@app/common/portfolio/types';
import { SUGGESTED_ATR_MULTIPLE, SUGGESTED_ATR_PERIOD } from '@app/common/history/guard-preview';
import {
  ATR_LIMITS,
  checkDraftToSave,
  DEFAULT_RULE_DRAFT,
  PRICE_GUARD_RULE,
  SAVE_ALL_MESSAGES,
  saveAllMessage,
  validateRuleDraft,
  type DraftCheck,
  type SaveCheck,
  type TriggerType,
  type ValueType,
} from '@app/common/rules/index';
import { ApiError } from '../../../api/errors.ts';

/** The account row a draft belongs to. */
export interface DraftTarget {
  symbol: string;
  exchange: Exchange;
  accountId: string;
}

export interface RuleDraft extends DraftTarget {
  key: string;
  triggerType: TriggerType;
  valueType: ValueType;
  /** As typed: digits and one dot (sanitizeTriggerInput); an ATR stop's multiple. */
  triggerValue: string;
  /** An ATR stop's period, as typed (digits); kept, unused, under the other units. */
  atrPeriod: string;
}

/** The rule of a draft, without the row it is on. */
export type DraftRule = Pick<RuleDraft, 'triggerType' | 'valueType' | 'triggerValue' | 'atrPeriod'>;

/** The rule an account row's draft starts with: alert, trailing stop loss, 7 percent (docs/exit-rules.md). */
const DEFAULT_DRAFT_RULE: DraftRule = {
  triggerType: DEFAULT_RULE_DRAFT.trigger_type,
  valueType: DEFAULT_RULE_DRAFT.value_type,
  triggerValue: String(DEFAULT_RULE_DRAFT.trigger_value),
  atrPeriod: String(ATR_LIMITS.defaultPeriod),
};

/** Price Guard's choice of rule: its 7 % trailing stop, or the ATR stop its preview compares. */
export type GuardChoice = 'percent' | 'atr';

/** The draft rule of each Price Guard choice; the ATR stop trails as the default rule does (3 × ATR(22)). */
export function guardRule(choice: GuardChoice): DraftRule {
  if (choice === 'percent') return DEFAULT_DRAFT_RULE;
  // The ATR stop the preview replays beside the default rule (atrRuleFor).
  return {
    triggerType: PRICE_GUARD_RULE.trigger_type,
    valueType: 'ATR',
    triggerValue: String(SUGGESTED_ATR_MULTIPLE),
    atrPeriod: String(SUGGESTED_ATR_PERIOD),
  };
}

/** `NSE:RELIANCE@<account id>`: one draft per account row. */
export function draftKey(target: DraftTarget): string {
  return `${target.exchange}:${target.symbol}@${target.accountId}`;
}

/** The draft an account row starts with (alert, trailing stop loss, 7 percent), or Price Guard's `rule`. */
export function newDraft(target: DraftTarget, rule: DraftRule = DEFAULT_DRAFT_RULE): RuleDraft {
  return {
    key: draftKey(target),
    symbol: target.symbol,
    exchange: target.exchange,
    accountId: target.accountId,
    ...rule,
  };
}

/** The draft checked against the live price: its trigger price, or the sentence of docs/exit-rules.md. */
export function draftPreview(draft: RuleDraft, currentPrice: number | null | undefined): DraftCheck {
  return validateRuleDraft({
    triggerType: draft.triggerType,
    valueType: draft.valueType,
    triggerValue: draft.triggerValue,
    currentPrice,
  });
}

/**
 * The draft checked as it will be sent: as draftPreview, but an ATR stop with a price passes
 * without a level (the server sets it from the daily history) once its multiple and period fit.
 */
export function draftSaveCheck(draft: RuleDraft, currentPrice: number | null | undefined): SaveCheck {
  return checkDraftToSave({ ...draft, currentPrice });
}

/**
 * The POST /api/position-rules body of a checked draft: an alert on that account's holding. An
 * ATR stop sends its period and no level (`triggerPrice` null: the server works it out).
 */
export function draftRequest(draft: RuleDraft, triggerValue: number, triggerPrice: number | null) {
  return {
    symbol: draft.symbol,
    exchange: draft.exchange,
    rule_scope: 'specific_account' as const,
    target_account_id: draft.accountId,
    action_type: DEFAULT_RULE_DRAFT.action_type,
    trigger_type: draft.triggerType,
    trigger_value: triggerValue,
    value_type: draft.valueType,
    ...(draft.valueType === 'ATR' ? { atr_period: Number(draft.atrPeriod) } : {}),
    ...(triggerPrice === null ? {} : { computed_trigger_price: triggerPrice }),
  };
}

/** A Price Guard target with the table row (`NSE:RELIANCE`) it sits in. */
export interface GuardTarget extends DraftTarget {
  rowKey: string;
}

/**
 * Every holding-account pair without an active rule and without a draft, in table order
 * (Price Guard drafts a rule for every pair without one: docs/exit-rules.md).
 */
export function priceGuardTargets(
  rows: readonly AggregatedHolding[],
  hasDraft: (key: string) => boolean,
): GuardTarget[] {
  const targets: GuardTarget[] = [];
  for (const row of rows) {
    for (const account of row.accounts) {
      if (account.active_rules_count > 0 || account.broker_account_id === null) continue;
      const target = {
        symbol: row.symbol,
        exchange: row.exchange,
        accountId: String(account.broker_account_id),
      };
      if (hasDraft(draftKey(target))) continue;
      targets.push({ ...target, rowKey: instrumentKey(row.exchange, row.symbol) });
    }
  }
  return targets;
}

/** A Price Guard target that can be protected now: its live price and the level it would get. */
export interface ReadyTarget extends GuardTarget {
  price: number;
  level: number;
}

/** A Price Guard target that cannot be protected now, and why ("no price for RELIANSE: …"). */
export interface BlockedTarget extends GuardTarget {
  reason: string;
}

/**
 * Splits Price Guard's targets into those it can protect now (a price, a valid 7 % level) and
 * those it cannot, each with its reason, so the count leaves them out and says why. The ATR
 * choice splits them alike (it too needs a price; its history is checked by the server on save).
 */
export function planPriceGuard(
  targets: readonly GuardTarget[],
  priceOf: (target: GuardTarget) => number | null,
  isListed: (target: GuardTarget) => boolean,
): { ready: ReadyTarget[]; blocked: BlockedTarget[] } {
  const ready: ReadyTarget[] = [];
  const blocked: BlockedTarget[] = [];
  for (const target of targets) {
    const price = priceOf(target);
    const check = draftPreview(newDraft(target), price);
    if (check.ok && price !== null) ready.push({ ...target, price, level: check.triggerPrice });
    else if (!check.ok)
      blocked.push({ ...target, reason: saveAllMessage(target.symbol, check, isListed(target)) });
  }
  return { ready, blocked };
}

/** 'Saved 23 rules; 1 needs attention.', 'Saved 2 rules.' */
export function savedSentence(saved: number, attention: number): string {
  const rules = `Saved ${saved} ${saved === 1 ? 'rule' : 'rules'}`;
  return attention === 0
    ? `${rules}.`
    : `${rules}; ${attention} ${attention === 1 ? 'needs' : 'need'} attention.`;
}

/** Added to a Save All failure when the server had no price for a holding yet. */
export const PRICE_DATA_GUIDANCE =
  'Prices update every minute. Refresh the page, or wait a minute and press Save All again.';

const PRICE_DATA_PROBLEMS = ['No price data available', 'Failed to fetch price data'];

export interface SaveProblem {
  message: string;
  /** One line per rule the server refused. */
  details: string[];
  /** Extra guidance when the server had no price data (docs/exit-rules.md). */
  guidance: string | null;
}

/** What a failed Save All shows: the server's sentence and list, or 'Failed to save rules'. */
export function saveAllProblem(err: unknown): SaveProblem {
  if (!(err instanceof ApiError) || !err.fromServer) {
    return { message: SAVE_ALL_MESSAGES.failed, details: [], guidance: null };
  }
  const details = err.details.filter((line) => line !== err.message);
  const noPrice = [err.message, ...err.details].some((text) =>
    PRICE_DATA_PROBLEMS.some((problem) => text.includes(problem)),
  );
  return { message: err.message, details, guidance: noPrice ? PRICE_DATA_GUIDANCE : null };
}

/** What a failed single save shows: the server's sentence, or 'Failed to create rule'. */
export function createRuleError(err: unknown): string {
  return err instanceof ApiError && err.fromServer ? err.message : 'Failed to create rule';
}

/** What a failed delete shows: the server's sentence, or 'Failed to delete rule'. */
export function deleteRuleError(err: unknown): string {
  return err instanceof ApiError && err.fromServer ? err.message : 'Failed to delete rule';
}

/** What a failed enable, disable or edit shows. */
export function updateRuleError(err: unknown): string {
  return err instanceof ApiError && err.fromServer ? err.message : 'Failed to update rule';
}
