/**
 * Saving rules: create one, create many (all or nothing), edit. The server arms each rule from
 * its own latest quote; the client's computed_trigger_price is only a preview. Services publish
 * a `rules` change after commit (the change feed), never route handlers.
 */
import type {
  ApiPositionRule,
  ApiSkippedRule,
  CreateRuleInput,
  UpdateRuleInput,
} from '@app/common/api/rules';
import { instrumentKey } from '@app/common/market/tick-batch';
import {
  ATR_LIMITS,
  DEFAULT_REARM_PERCENT,
  describeRule,
  rearmPrice,
  renamedAfterEdit,
  RULE_MESSAGES,
} from '@app/common/rules/index';
import { and, eq } from 'drizzle-orm';
import type { SessionUser } from '../auth/require-user.ts';
import type { Tx } from '../db/client.ts';
import { positionRules } from '../db/schema.ts';
import type { AppDeps } from '../deps.ts';
import { ownedAccount } from '../accounts/broker-accounts.ts';
import { Forbidden, Invalid, NotFound } from '../http/errors.ts';
import { lockUserTier } from '../users/tier.ts';
import {
  armRequestOf,
  armRule,
  loadHoldingsBook,
  notHeldProblem,
  type ArmedLevels,
  type ArmOutcome,
} from './arm.ts';
import { loadRuleAtrs } from './atrs.ts';
import { assertHoldingsLimit, ruleRoom, type NewRuleSlot } from './limits.ts';
import { presentRule, ruleStatus, type RuleRow } from './presenter.ts';
import { latestQuotes } from './quotes.ts';

export type RulesDeps = Pick<AppDeps, 'db' | 'events' | 'redis' | 'log' | 'now' | 'instruments'>;

/** NUMERIC(18,4) text. */
export const money = (value: number) => value.toFixed(4);

/**
 * The stored form of armed levels; `setAt` is when they were set from a price (the clock's now),
 * or null when they are kept as they were (enabling a fixed level), which keeps `levels_set_at`.
 */
export function levelColumns(levels: ArmedLevels, setAt: Date | null) {
  return {
    referencePrice: money(levels.referencePrice),
    peakPrice: levels.peakPrice === null ? null : money(levels.peakPrice),
    computedTriggerPrice: money(levels.computedTriggerPrice),
    atrPeriod: levels.atr?.period ?? null,
    atrValue: levels.atr ? money(levels.atr.value) : null,
    atrAsOf: levels.atr?.asOf ?? null,
    ...(setAt ? { levelsSetAt: setAt } : {}),
  };
}

/**
 * Refuses what cannot be armed: a single save with its sentence; in `bulk` mode (a bulk enable)
 * the whole list when any rule cannot be armed, listing every problem, nothing changed.
 */
export function rejectArming(outcomes: ArmOutcome[], mode: 'single' | 'bulk'): void {
  const problems = outcomes.flatMap((o) => (o.ok ? [] : [o]));
  if (problems.length === 0) return;
  if (mode === 'single') throw new Invalid(problems[0]!.message);
  const details = problems.map((p) => p.bulkMessage);
  const summary =
    problems.length === 1
      ? details[0]!
      : `${problems.length} of ${outcomes.length} rules could not be saved. Nothing was saved.`;
  throw new Invalid(summary, details);
}

/**
 * A bulk save (Save All, Price Guard, templates) saves what it can: a rule that cannot be armed
 * (no price, out of range, already crossed) is skipped and listed, and the rest are saved. Only
 * when no rule can be armed is it a 400 listing each problem.
 */
function rejectUnlessAnyArmed(outcomes: ArmOutcome[]): void {
  const problems = outcomes.flatMap((o) => (o.ok ? [] : [o]));
  if (problems.length < outcomes.length) return;
  const details = problems.map((p) => p.bulkMessage);
  if (problems.length === 1) throw new Invalid(details[0]!, details);
  const why = problems.every((p) => p.firesAtOnce)
    ? "the price has already crossed each one's level."
    : 'each one is listed with its reason.';
  throw new Invalid(`None of these ${problems.length} rules was saved: ${why}`, details);
}

/** Every target account must be the user's own (404 otherwise). */
async function assertOwnAccounts(tx: Tx, userId: string, ids: Iterable<string | null | undefined>) {
  for (const id of new Set(ids)) if (id) await ownedAccount(tx, { userId, accountId: id });
}

/** A rule to create; Price Guard's defaults name no re-arming (never). */
type NewRule = Omit<CreateRuleInput, 'rearm' | 'rearm_percent' | 'atr_period'> &
  Partial<Pick<CreateRuleInput, 'rearm' | 'rearm_percent' | 'atr_period'>>;

/** A new rule's row, its levels armed at `setAt`. */
export function newRuleValues(userId: string, rule: NewRule, levels: ArmedLevels, setAt: Date) {
  const specific = rule.rule_scope === 'specific_account';
  return {
    userId,
    symbol: rule.symbol,
    exchange: rule.exchange,
    ruleName: rule.rule_name || describeRule(rule),
    ruleScope: rule.rule_scope,
    targetAccountId: specific ? (rule.target_account_id ?? null) : null,
    actionType: rule.action_type,
    triggerType: rule.trigger_type,
    triggerValue: String(rule.trigger_value),
    valueType: rule.value_type,
    reference: rule.reference,
    ...levelColumns(levels, setAt),
    sellQuantityType: rule.sell_quantity_type,
    sellQuantityValue: rule.sell_quantity_value == null ? null : String(rule.sell_quantity_value),
    orderType: rule.order_type,
    limitPrice: rule.limit_price == null ? null : String(rule.limit_price),
    priority: rule.priority,
    isActive: true,
    rearm: rule.rearm ?? 'never',
    rearmPercent: String(rule.rearm_percent ?? DEFAULT_REARM_PERCENT),
  };
}

/** What a bulk save created and what it skipped (rules that would fire at once). */
export interface CreatedRules {
  rules: ApiPositionRule[];
  skipped: ApiSkippedRule[];
}

export interface CreateRulesCommand {
  user: SessionUser;
  rules: CreateRuleInput[];
  /** `single` answers with the single-save texts (docs/exit-rules.md), `bulk` lists Save All texts. */
  mode: 'single' | 'bulk';
}

/**
 * Creates rules in one transaction. A single save is refused with its sentence. A bulk save
 * (templates, Save All, Price Guard) saves every rule it can arm and lists the others in
 * `skipped` with their reasons; when none can be armed, it is a 400 listing each problem.
 */
export async function createRules(deps: RulesDeps, cmd: CreateRulesCommand): Promise<CreatedRules> {
  const userId = cmd.user.id;
  const saved = await deps.db.transaction(async (tx) => {
    const tier = await lockUserTier(tx, userId);
    await assertOwnAccounts(
      tx,
      userId,
      cmd.rules.map((r) => (r.rule_scope === 'specific_account' ? r.target_account_id : null)),
    );
    const book = await loadHoldingsBook(tx, userId);
    const quotes = await latestQuotes(tx, cmd.rules);
    const requests = cmd.rules.map(armRequestOf);
    const atrs = await loadRuleAtrs({ db: tx, instruments: deps.instruments }, requests, deps.now());
    const outcomes = requests.map((req) => armRule(req, book, quotes, atrs));
    if (cmd.mode === 'single') rejectArming(outcomes, 'single');
    else rejectUnlessAnyArmed(outcomes);
    const skipped: ApiSkippedRule[] = [];
    const armed: Array<{ rule: CreateRuleInput; levels: ArmedLevels }> = [];
    for (const [i, outcome] of outcomes.entries()) {
      const rule = cmd.rules[i]!;
      if (outcome.ok) armed.push({ rule, levels: outcome });
      else skipped.push(skippedRule(rule, outcome.message));
    }
    const room = await ruleRoom(tx, { userId, tier, adding: armed.map((a) => slotOf(a.rule)) });
    const kept = armed.filter((a, i) => {
      const refusal = room[i];
      if (refusal === null || refusal === undefined) return true;
      if (cmd.mode === 'single' || armed.length === 1) throw new Forbidden(refusal);
      skipped.push(skippedRule(a.rule, refusal));
      return false;
    });
    // A bulk save none of whose armed rules has room: the first limit it met.
    if (kept.length === 0) throw new Forbidden(room.find((r) => r !== null)!);
    await assertHoldingsLimit(tx, { userId, tier, adding: kept.map((k) => k.rule) });
    const rows = await tx
      .insert(positionRules)
      .values(kept.map(({ rule, levels }) => newRuleValues(userId, rule, levels, deps.now())))
      .returning();
    return {
      rules: rows.map((row) => presentRule(row, quotes.get(instrumentKey(row.exchange, row.symbol)) ?? null)),
      skipped,
    };
  });
  void deps.events.publish({ type: 'rules', userId });
  return saved;
}

/** The holding and account a new rule takes a place on. */
function slotOf(rule: CreateRuleInput): NewRuleSlot {
  return {
    symbol: rule.symbol,
    exchange: rule.exchange,
    targetAccountId: rule.rule_scope === 'specific_account' ? (rule.target_account_id ?? null) : null,
  };
}

function skippedRule(rule: CreateRuleInput, reason: string): ApiSkippedRule {
  return {
    symbol: rule.symbol,
    exchange: rule.exchange,
    target_account_id: rule.rule_scope === 'specific_account' ? (rule.target_account_id ?? null) : null,
    reason,
  };
}

const REARM_FIELDS = ['trigger_type', 'trigger_value', 'value_type', 'reference', 'atr_period'] as const;

/**
 * Edits a rule. A change to its trigger (type, value, value type or reference) re-arms it with a
 * fresh peak, measured from its stored reference kind (the latest quote, or the holding's buy
 * price for a template rule) unless the edit names another; a name, scope or priority change
 * keeps its levels.
 */
export async function updateRule(
  deps: RulesDeps,
  cmd: { user: SessionUser; id: string; input: UpdateRuleInput },
): Promise<ApiPositionRule> {
  const { user, id, input } = cmd;
  const updated = await deps.db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(positionRules)
      .where(and(eq(positionRules.id, id), eq(positionRules.userId, user.id)))
      .for('update');
    if (!existing) throw new NotFound(RULE_MESSAGES.ruleNotFound);
    const scope = input.rule_scope ?? existing.ruleScope;
    const target =
      scope === 'specific_account'
        ? input.target_account_id !== undefined
          ? input.target_account_id
          : existing.targetAccountId
        : null;
    if (scope === 'specific_account' && !target) throw new Invalid(RULE_MESSAGES.accountRequired);
    if (target !== existing.targetAccountId) await assertOwnAccounts(tx, user.id, [target]);
    const merged = {
      symbol: existing.symbol,
      exchange: existing.exchange,
      ruleScope: scope,
      targetAccountId: target,
      triggerType: input.trigger_type ?? existing.triggerType,
      valueType: input.value_type ?? existing.valueType,
      triggerValue: input.trigger_value ?? Number(existing.triggerValue),
      reference: input.reference ?? existing.reference,
      atrPeriod: null as number | null,
    };
    if (merged.valueType === 'ATR')
      merged.atrPeriod = input.atr_period ?? existing.atrPeriod ?? ATR_LIMITS.defaultPeriod;
    if (merged.valueType === 'ATR' && input.trigger_value === undefined && existing.valueType !== 'ATR')
      merged.triggerValue = ATR_LIMITS.defaultMultiple;
    const book = await loadHoldingsBook(tx, user.id);
    const quotes = await latestQuotes(tx, [existing]);
    let levels: Partial<RuleRow> = {};
    if (REARM_FIELDS.some((field) => input[field] !== undefined)) {
      const outcome = armRule(
        merged,
        book,
        quotes,
        await loadRuleAtrs({ db: tx, instruments: deps.instruments }, [merged], deps.now()),
      );
      rejectArming([outcome], 'single');
      levels = levelColumns(outcome as ArmedLevels, deps.now());
    } else if (input.rule_scope !== undefined || input.target_account_id !== undefined) {
      const notHeld = notHeldProblem(merged, book);
      if (notHeld) throw new Invalid(notHeld);
    }
    const edited = { ...levels, ...editedColumns(input), triggerType: merged.triggerType };
    const [row] = await tx
      .update(positionRules)
      .set({
        ...edited,
        ...waitColumns(existing, edited),
        ruleName:
          input.rule_name !== undefined
            ? input.rule_name || describeRule(asRule(merged))
            : renamedAfterEdit(existing.ruleName, asRule(existingTrigger(existing)), asRule(merged)),
        ruleScope: scope,
        targetAccountId: target,
        triggerType: merged.triggerType,
        triggerValue: String(merged.triggerValue),
        valueType: merged.valueType,
        reference: merged.reference,
        updatedAt: new Date(),
      })
      .where(eq(positionRules.id, existing.id))
      .returning();
    return presentRule(row!, quotes.get(instrumentKey(existing.exchange, existing.symbol)) ?? null);
  });
  void deps.events.publish({ type: 'rules', userId: user.id });
  return updated;
}

/** The optional columns an edit names; null clears a number. */
function editedColumns(input: UpdateRuleInput): Partial<RuleRow> {
  const text = (value: number | null) => (value === null ? null : String(value));
  const columns: Partial<RuleRow> = {};
  if (input.action_type !== undefined) columns.actionType = input.action_type;
  if (input.sell_quantity_type !== undefined) columns.sellQuantityType = input.sell_quantity_type;
  if (input.sell_quantity_value !== undefined) columns.sellQuantityValue = text(input.sell_quantity_value);
  if (input.order_type !== undefined) columns.orderType = input.order_type;
  if (input.limit_price !== undefined) columns.limitPrice = text(input.limit_price);
  if (input.priority !== undefined) columns.priority = input.priority;
  if (input.rearm !== undefined) columns.rearm = input.rearm;
  if (input.rearm_percent !== undefined) columns.rearmPercent = String(input.rearm_percent);
  return columns;
}

/**
 * A fired rule waiting to re-arm keeps waiting after an edit, at the price its (new) level and
 * percent give; an edit to `never` stops the wait (the rule stays off until enabled). A fired
 * rule not waiting (Triggered, `never`) starts waiting when the edit turns re-arming on.
 */
function waitColumns(existing: RuleRow, edited: Partial<RuleRow>): Partial<RuleRow> {
  const waiting = existing.rearmAt !== null || ruleStatus(existing) === 'TRIGGERED';
  if (!waiting) return {};
  const mode = edited.rearm ?? existing.rearm;
  if (mode === 'never') return { rearmAt: null };
  const level = Number(edited.computedTriggerPrice ?? existing.computedTriggerPrice);
  const percent = Number(edited.rearmPercent ?? existing.rearmPercent);
  return { rearmAt: money(rearmPrice(edited.triggerType ?? existing.triggerType, level, percent)) };
}

function existingTrigger(row: RuleRow) {
  return { triggerType: row.triggerType, triggerValue: Number(row.triggerValue), valueType: row.valueType };
}

function asRule(merged: {
  triggerType: RuleRow['triggerType'];
  triggerValue: number;
  valueType: RuleRow['valueType'];
}) {
  return {
    trigger_type: merged.triggerType,
    trigger_value: merged.triggerValue,
    value_type: merged.valueType,
  };
}
