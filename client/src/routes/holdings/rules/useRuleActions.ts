import type { ApiPositionRule } from '@app/common/api/rules';
import { useState } from 'react';
import { deleteRuleError, updateRuleError } from './ruleDrafts.ts';
import { rulesApi, type RuleChange } from './rulesApi.ts';

/** What `useRuleActions` gives a saved rule's row. */
export type RuleActions = ReturnType<typeof useRuleActions>;

/**
 * A saved rule's own actions, wherever it is listed (an account's row, Manage Rules): Enable or
 * Disable, Edit, and Delete after a confirmation. Each call reloads the rules through `onChanged`;
 * while one runs the row is `busy`, and a failure is kept in `error` in the user's words.
 */
export function useRuleActions(rule: ApiPositionRule, onChanged: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

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
    toggle: () => run(() => rulesApi.setActive(rule.id, !rule.is_active), updateRuleError),
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
