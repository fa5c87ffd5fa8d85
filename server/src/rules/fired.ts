/**
 * What a firing tells the house: one `executions` change per claimed trigger, carrying the
 * execution as the bell lists it, so every tab patches its lists from the `alert` push and no
 * instance reloads the user's rules (events/consumers.ts) — except where a claim left a rule
 * waiting to re-arm or re-armed it: then a `rules` change follows the executions in the same
 * message, so every instance loads the rule's new watch (after dropping the fired one).
 */
import { describePriceAlert } from '@app/common/rules/index';
import { inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import { presentExecution } from '../alerts/executions.ts';
import type { Executor } from '../db/client.ts';
import { positionRules } from '../db/schema.ts';
import type { Change } from '../events/changes.ts';
import type { ClaimedTrigger } from './claim.ts';

/** The rules' names, in one query for the whole chunk; none when it fails (the push goes anyway). */
async function ruleNames(db: Executor, ids: string[], log: Logger): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  try {
    const rows = await db
      .select({ id: positionRules.id, name: positionRules.ruleName })
      .from(positionRules)
      .where(inArray(positionRules.id, ids));
    return new Map(rows.map((r) => [r.id, r.name]));
  } catch (err) {
    log.warn({ err, rules: ids.length }, 'could not read the names of fired rules; pushing without them');
    return new Map();
  }
}

/** The `executions` changes of a chunk of claimed triggers. */
export async function firedChanges(db: Executor, fired: ClaimedTrigger[], log: Logger): Promise<Change[]> {
  const ruleIds = fired.flatMap((f) => (f.execution.ruleId ? [f.execution.ruleId] : []));
  const names = await ruleNames(db, ruleIds, log);
  const reload = [...new Set(fired.filter((f) => f.rulesChanged).map((f) => f.userId))];
  const executions = fired.map(({ userId, execution: e }): Change => {
    const name = e.ruleId
      ? (names.get(e.ruleId) ?? null)
      : describePriceAlert({
          direction: e.triggerType === 'PRICE_ABOVE' ? 'above' : 'below',
          price: Number(e.triggerPrice),
        });
    return { type: 'executions', userId, fired: presentExecution(e, name) };
  });
  return [...executions, ...reload.map((userId): Change => ({ type: 'rules', userId }))];
}
