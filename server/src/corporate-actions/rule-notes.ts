/** The adjustments each rule has had, for the rules API ('adjusted for 1:1 bonus on 19 Dec 2025'). */
import type { ApiRuleAdjustment } from '@app/common/api/corporate-actions';
import { adjustmentNote } from '@app/common/corporate-actions/index';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { corporateActionAdjustments, corporateActions } from '../db/schema.ts';

/** Rule id → its adjustments, newest ex-date first (rules never adjusted are absent). */
export async function ruleAdjustments(
  db: Executor,
  ruleIds: readonly string[],
): Promise<Map<string, ApiRuleAdjustment[]>> {
  const byRule = new Map<string, ApiRuleAdjustment[]>();
  if (ruleIds.length === 0) return byRule;
  const rows = await db
    .select({
      ruleId: corporateActionAdjustments.targetId,
      actionId: corporateActions.id,
      kind: corporateActions.kind,
      purpose: corporateActions.purpose,
      exDate: corporateActions.exDate,
      ratio: corporateActions.ratio,
    })
    .from(corporateActionAdjustments)
    .innerJoin(corporateActions, eq(corporateActions.id, corporateActionAdjustments.actionId))
    .where(
      and(
        eq(corporateActionAdjustments.target, 'rule'),
        inArray(corporateActionAdjustments.targetId, [...ruleIds]),
      ),
    )
    .orderBy(desc(corporateActions.exDate), desc(corporateActions.kind));
  for (const r of rows) {
    const list = byRule.get(r.ruleId) ?? [];
    list.push({
      action_id: r.actionId,
      kind: r.kind,
      ex_date: r.exDate,
      ratio: Number(r.ratio),
      note: adjustmentNote({ kind: r.kind, purpose: r.purpose, ex_date: r.exDate }),
    });
    byRule.set(r.ruleId, list);
  }
  return byRule;
}
