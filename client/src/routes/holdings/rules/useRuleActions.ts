import type { ApiPositionRule } from '@app/common/api/rules';
import { enableQuestion, type EnableQuestion } from '@app/common/rules/index';
import { useState } from 'react';
import { deleteRuleError, updateRuleError } from './ruleDrafts.ts';
import { rulesApi, type RuleChange } from './rulesApi.ts';

/** What `useRuleActions` gives a saved rule's row. */
export type RuleActions = ReturnType<typeof useRuleActions>;

/**
 * A saved rule's own actions, wherever it is listed (an account's row, Manage Rules): Enable (after
 * a question when its fixed level has been crossed) or Disable, Edit, and Delete after a confirmation. Each call reloads the rules through `onChanged`;
 * while one runs the row is `busy`, and a failure is kept in `error` in the user's words.
 */
export function useRuleActions(rule: ApiPositionRule, onChanged: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [question, setQuestion] = useState<EnableQuestion | null>(null);

  /** Runs `task`, then reloads; false (and `error` set) when either fails. */
  const run = async (task: () => Promise<unknown>, describeError: (err: unknown) => string) => {
    setBusy(true);
    setError(null);
    try {
      await task();
      await onChanged();
      return true;
    } catch (err) {
      setError(describeError(err));
      return false;
    } finally {
      setBusy(false);
    }
  };

  return {
    busy,
    error,
    dismissError: () => setError(null),
    /** The delete confirmation is open. */
    confirming,
    askDelete: () => setConfirming(true),
    cancelDelete: () => setConfirming(false),
    /**
     * Enable or Disable. Enabling a fixed rule whose level the price has crossed since asks
     * first (`question`): as it is, it would fire at once.
     */
    toggle: () => {
      const ask = rule.is_active ? null : enableQuestion(rule);
      if (ask) {
        setQuestion(ask);
        return Promise.resolve(false);
      }
      return run(() => rulesApi.setActive(rule.id, !rule.is_active), updateRuleError);
    },
    /** The question open before enabling, or null. */
    question,
    closeQuestion: () => setQuestion(null),
    /** The answer 'yes': enabled at the level measured from the current price. */
    enableFromPrice: () =>
      run(async () => {
        try {
          await rulesApi.setActive(rule.id, true, 'from_price');
        } finally {
          setQuestion(null);
        }
      }, updateRuleError),
    update: (change: RuleChange) => run(() => rulesApi.update(rule.id, change), updateRuleError),
    /** Deletes the rule; the confirmation closes as soon as the server has answered. */
    remove: () =>
      run(async () => {
        try {
          await rulesApi.remove(rule.id);
        } finally {
          setConfirming(false);
        }
      }, deleteRuleError),
  };
}
