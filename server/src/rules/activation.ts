/**
 * Enabling, disabling and deleting rules, one or many (all or nothing). Enabling keeps a fixed
 * stop's or target's level (common/src/rules/enabling.ts) and re-arms a trailing stop with a
 * fresh peak from its stored reference kind; the tier limit applies again.
 */
import type { ApiBulkActionResult, ApiPositionRule, BulkRuleActionInput } from '@app/common/api/rules';
import { isUuid } from '@app/common/api/uuid';
import { instrumentKey } from '@app/common/market/tick-batch';
import { keepsLevelOnEnable, RULE_MESSAGES, type EnableLevel } from '@app/common/rules/index';
import { and, eq, inArray } from 'drizzle-orm';
import type { SessionUser } from '../auth/require-user.ts';
import type { Tx } from '../db/client.ts';
import { positionRules } from '../db/schema.ts';
import { NotFound } from '../http/errors.ts';
import { lockUserTier } from '../users/tier.ts';
import { loadRuleAtrs } from './atrs.ts';
import { armRule, keepLevels, loadHoldingsBook, type ArmedLevels, type ArmRequest } from './arm.ts';
import { assertHoldingsLimit } from './limits.ts';
import { presentRule, type RuleRow } from './presenter.ts';
import { latestQuotes } from './quotes.ts';
import { levelColumns, rejectArming, type RulesDeps } from './service.ts';

/** The user's rules `ids`, locked; 404 unless every id is one of them (malformed ids included). */
async function lockOwnRules(
  tx: Tx,
  userId: string,
  ids: string[],
  mode: 'single' | 'bulk',
): Promise<RuleRow[]> {
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const notFound = new NotFound(mode === 'single' ? RULE_MESSAGES.ruleNotFound : RULE_MESSAGES.rulesNotFound);
  if (!unique.every(isUuid)) throw notFound;
  const rows = await tx
    .select()
    .from(positionRules)
    .where(and(eq(positionRules.userId, userId), inArray(positionRules.id, unique)))
    .for('update');
  if (rows.length !== unique.length) throw notFound;
  return rows;
}

async function disable(tx: Tx, rows: RuleRow[]): Promise<RuleRow[]> {
  if (rows.length === 0) return [];
  return tx
    .update(positionRules)
    .set({ isActive: false, rearmAt: null, pausedAtBroker: null, updatedAt: new Date() })
    .where(
      inArray(
        positionRules.id,
        rows.map((r) => r.id),
      ),
    )
    .returning();
}

/** The arming request of a stored rule. */
function armRequestOfRow(r: RuleRow): ArmRequest {
  return {
    symbol: r.symbol,
    exchange: r.exchange,
    ruleScope: r.ruleScope,
    targetAccountId: r.targetAccountId,
    triggerType: r.triggerType,
    valueType: r.valueType,
    triggerValue: Number(r.triggerValue),
    reference: r.reference,
    atrPeriod: r.atrPeriod,
  };
}

/**
 * Turns inactive rules on; active ones are left as they are. A fixed stop or target keeps its
 * level (refused if the price has crossed it since) unless `level` is `from_price`, which
 * measures it again from the current price; a trailing stop starts a new peak from its reference.
 */
async function enable(
  tx: Tx,
  instruments: RulesDeps['instruments'],
  userId: string,
  rows: RuleRow[],
  mode: 'single' | 'bulk',
  setAt: Date,
  level: EnableLevel = 'keep',
): Promise<RuleRow[]> {
  const tier = await lockUserTier(tx, userId);
  const waking = rows.filter((r) => !r.isActive);
  const book = await loadHoldingsBook(tx, userId);
  const quotes = await latestQuotes(tx, waking);
  // A level measured again from the price is set now; a kept one keeps when it was set.
  const fromPrice = (r: RuleRow) => level === 'from_price' || !keepsLevelOnEnable(r.triggerType);
  const atrs = await loadRuleAtrs(
    { db: tx, instruments },
    waking.filter(fromPrice).map(armRequestOfRow),
    setAt,
  );
  const outcomes = waking.map((r) => {
    const req = armRequestOfRow(r);
    if (level === 'from_price') return armRule({ ...req, reference: 'current' }, book, quotes, atrs);
    if (fromPrice(r)) return armRule(req, book, quotes, atrs);
    return keepLevels(
      {
        ...req,
        levels: {
          referencePrice: Number(r.referencePrice),
          peakPrice: r.peakPrice === null ? null : Number(r.peakPrice),
          computedTriggerPrice: Number(r.computedTriggerPrice),
          atr:
            r.atrPeriod !== null && r.atrValue !== null && r.atrAsOf !== null
              ? { period: r.atrPeriod, value: Number(r.atrValue), asOf: r.atrAsOf }
              : null,
        },
      },
      book,
      quotes,
    );
  });
  rejectArming(outcomes, mode);
  await assertHoldingsLimit(tx, { userId, tier, adding: waking });
  const now = new Date();
  const updated = new Map<string, RuleRow>();
  for (const [i, rule] of waking.entries()) {
    const levels = levelColumns(outcomes[i] as ArmedLevels, fromPrice(rule) ? setAt : null);
    const [row] = await tx
      .update(positionRules)
      .set({ isActive: true, rearmAt: null, pausedAtBroker: null, ...levels, updatedAt: now })
      .where(eq(positionRules.id, rule.id))
      .returning();
    updated.set(rule.id, row!);
  }
  return rows.map((r) => updated.get(r.id) ?? r);
}

async function withPrices(tx: Tx, rows: RuleRow[]): Promise<ApiPositionRule[]> {
  const quotes = await latestQuotes(tx, rows);
  return rows.map((r) => presentRule(r, quotes.get(instrumentKey(r.exchange, r.symbol)) ?? null));
}

/** PATCH /position-rules/:id: enable (keeping a fixed level, or from the price when asked) or disable one rule. */
export async function setRuleActive(
  deps: RulesDeps,
  cmd: { user: SessionUser; id: string; isActive: boolean; level?: EnableLevel },
): Promise<ApiPositionRule> {
  const [rule] = await deps.db.transaction(async (tx) => {
    const rows = await lockOwnRules(tx, cmd.user.id, [cmd.id], 'single');
    const changed = cmd.isActive
      ? await enable(tx, deps.instruments, cmd.user.id, rows, 'single', deps.now(), cmd.level)
      : await disable(tx, rows);
    return withPrices(tx, changed);
  });
  void deps.events.publish({ type: 'rules', userId: cmd.user.id });
  return rule!;
}

/** DELETE /position-rules/:id. Its executions stay in History (rule_id becomes null). */
export async function deleteRule(deps: RulesDeps, cmd: { user: SessionUser; id: string }) {
  await deps.db.transaction(async (tx) => {
    await lockOwnRules(tx, cmd.user.id, [cmd.id], 'single');
    await tx.delete(positionRules).where(eq(positionRules.id, cmd.id));
  });
  void deps.events.publish({ type: 'rules', userId: cmd.user.id });
  return { id: cmd.id, deleted: true as const };
}

/** POST /position-rules/bulk-action: enable, disable or delete many rules, all or none. */
export async function bulkRuleAction(
  deps: RulesDeps,
  cmd: { user: SessionUser; input: BulkRuleActionInput },
): Promise<ApiBulkActionResult> {
  const { user, input } = cmd;
  const result = await deps.db.transaction(async (tx) => {
    const rows = await lockOwnRules(tx, user.id, input.ids, 'bulk');
    const ids = rows.map((r) => r.id);
    if (input.action === 'delete') {
      await tx.delete(positionRules).where(inArray(positionRules.id, ids));
      return { action: input.action, ids, rules: [] };
    }
    const changed =
      input.action === 'enable'
        ? await enable(tx, deps.instruments, user.id, rows, 'bulk', deps.now())
        : await disable(
            tx,
            rows.filter((r) => r.isActive || r.rearmAt !== null),
          ).then((done) => rows.map((r) => done.find((d) => d.id === r.id) ?? r));
    return { action: input.action, ids, rules: await withPrices(tx, changed) };
  });
  void deps.events.publish({ type: 'rules', userId: user.id });
  return result;
}
