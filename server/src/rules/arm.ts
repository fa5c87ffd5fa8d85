/**
 * Arming a rule: its reference price, peak and trigger level from the server's own latest quote
 * (or the holding's buy price), checked as docs/exit-rules.md says. Pure once the data is loaded, so a bulk
 * save checks every rule before writing any.
 */
import { historyNeededMessage } from '@app/common/history/bars';
import {
  ATR_LIMITS,
  crossedOnEnableMessage,
  isCrossed,
  noPriceDataMessage,
  notHeldInAccountMessage,
  notHeldMessage,
  RULE_KINDS,
  saveAllMessage,
  validateRuleDraft,
  VALUE_TYPE_TRAITS,
  valueTypeFits,
  type ReferenceKind,
  type RuleScope,
  type TriggerType,
  type ValueType,
} from '@app/common/rules/index';
import type { CreateRuleInput } from '@app/common/api/rules';
import type { Exchange } from '@app/common/instruments/types';
import { instrumentKey } from '@app/common/market/tick-batch';
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { holdings } from '../db/schema.ts';
import type { AtrAt } from '../history/atr-of.ts';
import type { LatestQuote } from './quotes.ts';

interface HeldLot {
  accountId: string;
  quantity: number;
  averagePrice: number;
}

/** The user's holdings by instrument key, for "do you hold it" and buy-price references. */
export type HoldingsBook = Map<string, HeldLot[]>;

/** Every holding of the user, by instrument, with its account and buy price. */
export async function loadHoldingsBook(db: Executor, userId: string): Promise<HoldingsBook> {
  const rows = await db
    .select({
      symbol: holdings.symbol,
      exchange: holdings.exchange,
      accountId: holdings.brokerAccountId,
      quantity: holdings.quantity,
      averagePrice: holdings.averagePrice,
    })
    .from(holdings)
    .where(eq(holdings.userId, userId));
  const book: HoldingsBook = new Map();
  for (const r of rows) {
    const key = instrumentKey(r.exchange, r.symbol);
    const lot = {
      accountId: r.accountId,
      quantity: Number(r.quantity),
      averagePrice: Number(r.averagePrice),
    };
    book.set(key, [...(book.get(key) ?? []), lot]);
  }
  return book;
}

export interface ArmRequest {
  symbol: string;
  exchange: Exchange;
  ruleScope: RuleScope;
  targetAccountId: string | null;
  triggerType: TriggerType;
  valueType: ValueType;
  triggerValue: number;
  reference: ReferenceKind;
  /** ATR stops: the period n of ATR(n); null for other value types. */
  atrPeriod: number | null;
}

/** A rule as the API spells it (a create body, a template's or Price Guard's rule). */
type ApiRule = Pick<
  CreateRuleInput,
  'symbol' | 'exchange' | 'rule_scope' | 'trigger_type' | 'value_type' | 'trigger_value' | 'reference'
> & { target_account_id?: string | null; atr_period?: number };

/** The arming request for a rule as the API spells it. */
export function armRequestOf(rule: ApiRule): ArmRequest {
  return {
    symbol: rule.symbol,
    exchange: rule.exchange,
    ruleScope: rule.rule_scope,
    targetAccountId: rule.target_account_id ?? null,
    triggerType: rule.trigger_type,
    valueType: rule.value_type,
    triggerValue: rule.trigger_value,
    reference: rule.reference,
    atrPeriod: rule.value_type === 'ATR' ? (rule.atr_period ?? ATR_LIMITS.defaultPeriod) : null,
  };
}

/** The ATR an ATR stop's level was set from: its period, value and the day of its last bar. */
export interface ArmedAtr {
  period: number;
  value: number;
  asOf: string;
}

export interface ArmedLevels {
  referencePrice: number;
  peakPrice: number | null;
  computedTriggerPrice: number;
  currentPrice: number;
  /** ATR stops only; null for the other value types. */
  atr: ArmedAtr | null;
}

/** The ATRs of the ATR stops being armed, by `atrKey` (server/src/rules/atrs.ts loads them). */
export type RuleAtrs = Map<string, AtrAt>;

/** A rule's key in {@link RuleAtrs}: its instrument and period. */
export const atrKey = (r: { exchange: Exchange; symbol: string; atrPeriod: number | null }) =>
  `${instrumentKey(r.exchange, r.symbol)}|${r.atrPeriod}`;

/**
 * `message` answers a single save; `bulkMessage` names the symbol, for a Save All list.
 * `firesAtOnce`: the price has already crossed the level, so a template may skip the holding.
 */
export type ArmOutcome =
  ({ ok: true } & ArmedLevels) | { ok: false; message: string; bulkMessage: string; firesAtOnce: boolean };

function refused(message: string, bulkMessage = message, firesAtOnce = false): ArmOutcome {
  return { ok: false, message, bulkMessage, firesAtOnce };
}

/**
 * The buy price of the lots the rule covers: one account's, or the weighted average of all (an
 * `all_holdings` rule has one level; templates send one rule per account instead, so each is
 * measured from that account's own buy price).
 */
function buyPrice(lots: HeldLot[]): number {
  const quantity = lots.reduce((sum, l) => sum + l.quantity, 0);
  const invested = lots.reduce((sum, l) => sum + l.quantity * l.averagePrice, 0);
  return quantity > 0 ? invested / quantity : (lots[0]?.averagePrice ?? 0);
}

type Scoped = Pick<ArmRequest, 'symbol' | 'exchange' | 'ruleScope' | 'targetAccountId'>;

/** The lots a rule covers: the instrument in every account, or in its target account. */
export function coveredLots(req: Scoped, book: HoldingsBook): HeldLot[] {
  const held = book.get(instrumentKey(req.exchange, req.symbol)) ?? [];
  return req.ruleScope === 'specific_account'
    ? held.filter((l) => l.accountId === req.targetAccountId)
    : held;
}

/** Why a rule with this scope covers nothing the user holds, or null when it covers something. */
export function notHeldProblem(req: Scoped, book: HoldingsBook): string | null {
  if (coveredLots(req, book).length > 0) return null;
  return req.ruleScope === 'specific_account'
    ? notHeldInAccountMessage(req.symbol, req.exchange)
    : notHeldMessage(req.symbol, req.exchange);
}

/**
 * Levels for a rule armed now, or why it cannot be (the draft texts of docs/exit-rules.md, the
 * server's no-price text).
 */
export function armRule(
  req: ArmRequest,
  book: HoldingsBook,
  quotes: Map<string, LatestQuote>,
  atrs: RuleAtrs = new Map(),
): ArmOutcome {
  const key = instrumentKey(req.exchange, req.symbol);
  const lots = coveredLots(req, book);
  const notHeld = notHeldProblem(req, book);
  if (notHeld) return refused(notHeld);
  const quote = quotes.get(key);
  if (!quote) return refused(noPriceDataMessage(req.symbol));
  let atr: ArmedAtr | null = null;
  if (VALUE_TYPE_TRAITS[req.valueType].fromBars && valueTypeFits(req.triggerType, req.valueType)) {
    const period = req.atrPeriod ?? ATR_LIMITS.defaultPeriod;
    const found = atrs.get(atrKey({ ...req, atrPeriod: period })) ?? { missingDays: period };
    if ('missingDays' in found) {
      const message = historyNeededMessage(found.missingDays);
      return refused(`${message} for an ATR(${period}) stop on ${req.symbol}.`, `${req.symbol}: ${message}`);
    }
    atr = { period, value: found.atr, asOf: found.asOf };
  }
  const referencePrice = req.reference === 'buy_price' ? buyPrice(lots) : quote.ltp;
  const check = validateRuleDraft({
    triggerType: req.triggerType,
    valueType: req.valueType,
    triggerValue: req.triggerValue,
    currentPrice: quote.ltp,
    referencePrice,
    ...(atr ? { atr: atr.value } : {}),
  });
  if (!check.ok) {
    if (check.problem === 'bounds' || check.problem === 'invalid' || check.problem === 'unfit')
      return refused(check.error, saveAllMessage(req.symbol, check));
    if (check.problem === 'fires_at_once')
      return refused(check.error, saveAllMessage(req.symbol, check), true);
    return refused(check.error);
  }
  return {
    ok: true,
    referencePrice,
    peakPrice: RULE_KINDS[req.triggerType].trails ? referencePrice : null,
    computedTriggerPrice: check.triggerPrice,
    currentPrice: quote.ltp,
    atr,
  };
}

/** A rule enabled with its stored levels kept (a fixed stop or target: its level never moves by itself). */
export interface KeptRule extends ArmRequest {
  levels: Omit<ArmedLevels, 'currentPrice'>;
}

/**
 * The stored levels of a rule being enabled, checked as arming checks a new one: it must cover a
 * holding and have a price, and the price must not have crossed the level since (it would fire
 * at once; `firesAtOnce`, and the sentence says what the user can do).
 */
export function keepLevels(req: KeptRule, book: HoldingsBook, quotes: Map<string, LatestQuote>): ArmOutcome {
  const notHeld = notHeldProblem(req, book);
  if (notHeld) return refused(notHeld);
  const quote = quotes.get(instrumentKey(req.exchange, req.symbol));
  if (!quote) return refused(noPriceDataMessage(req.symbol));
  const level = req.levels.computedTriggerPrice;
  if (isCrossed({ triggerType: req.triggerType, triggerPrice: level }, quote.ltp)) {
    const message = crossedOnEnableMessage(
      { symbol: req.symbol, trigger_type: req.triggerType, value_type: req.valueType },
      level,
      quote.ltp,
    );
    return refused(message, message, true);
  }
  return { ok: true, ...req.levels, currentPrice: quote.ltp };
}
