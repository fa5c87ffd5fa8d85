/**
 * What a firing tells the house: one `executions` change per claimed trigger, carrying the
 * execution as the bell lists it, so every tab patches its lists from the `alert` push and no
 * instance reloads the user's rules (events/consumers.ts) — except where a claim left a rule
 * waiting to re-arm or re-armed it: then a `rules` change follows the executions in the same
 * message, so every instance loads the rule's new watch (after dropping the fired one).
 */
import { describePriceAlert } from '@app/common/rules/index';
import { presentExecution } from '../executions/history.ts';
import type { Change } from '../events/changes.ts';
import type { ClaimedTrigger } from './claim.ts';

/** The `executions` changes of a chunk of claimed triggers. */
export function firedChanges(fired: ClaimedTrigger[]): Change[] {
  const reload = [...new Set(fired.filter((f) => f.rulesChanged).map((f) => f.userId))];
  const executions = fired.map(({ userId, execution: e, ruleName }): Change => {
    const name = e.ruleId
      ? ruleName
      : describePriceAlert({
          direction: e.triggerType === 'PRICE_ABOVE' ? 'above' : 'below',
          price: Number(e.triggerPrice),
        });
    return { type: 'executions', userId, fired: presentExecution(e, name) };
  });
  return [...executions, ...reload.map((userId): Change => ({ type: 'rules', userId }))];
}
