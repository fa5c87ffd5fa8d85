import type { AggregatedHolding } from '@app/common/portfolio/types';
import { useState } from 'react';
import { api, errorMessage } from '../../api/client.ts';

/** What the confirmation dialog is about: one holding (every account of it) or everything. */
export type DeletionTarget = { kind: 'one'; row: AggregatedHolding } | { kind: 'all' } | null;

export interface DeletionProblem {
  message: string;
  details: string[];
}

export const DELETE_MESSAGES = {
  one: 'Failed to delete holding',
  some: 'Failed to delete some holdings',
  noneToDelete: 'No holdings found to delete.',
  all: 'Failed to delete all holdings. Please try again.',
} as const;

/** "A, B and C". */
function joinNames(names: readonly string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * What deleting a row does not undo: the lots of upload accounts come back when their broker file,
 * which still lists the stock, is uploaded again ("The lot in Zerodha · AB1234 comes back at its
 * next upload, …"); '' when every lot was added by hand.
 */
export function comesBackSentence(
  row: AggregatedHolding,
  accountName: (accountId: string) => string,
): string {
  const imported = row.accounts
    .filter((a) => a.broker_type !== 'USER_ADDED')
    .map((a) => accountName(String(a.broker_account_id)));
  if (imported.length === 0) return '';
  return imported.length === 1
    ? `The lot in ${imported[0]} comes back at its next upload if that file still lists ${row.symbol}.`
    : `The lots in ${joinNames(imported)} come back at their next upload if those files still list ${row.symbol}.`;
}

/**
 * Deleting a holding (each account's row, `DELETE /api/holdings/:id`) or all holdings (`DELETE
 * /api/holdings/all`) after a confirmation, with the failure texts of
 * docs/holdings.md#holdings-and-dashboard-screens.
 */
export function useHoldingDeletion(
  reload: () => Promise<void>,
  accountName: (accountId: string) => string,
  onDone: (message: string) => void,
) {
  const [target, setTarget] = useState<DeletionTarget>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<DeletionProblem | null>(null);

  const deleteOne = async (row: AggregatedHolding) => {
    const failures: string[] = [];
    for (const account of row.accounts) {
      try {
        await api.delete(`/holdings/${account.id}`);
      } catch (err) {
        failures.push(
          `${accountName(String(account.broker_account_id))}: ${errorMessage(err, DELETE_MESSAGES.one)}`,
        );
      }
    }
    if (failures.length === 0) onDone(`${row.symbol} (${row.exchange}) was deleted.`);
    else if (row.accounts.length === 1) setProblem({ message: DELETE_MESSAGES.one, details: [] });
    else setProblem({ message: DELETE_MESSAGES.some, details: failures });
  };

  const deleteAll = async () => {
    try {
      const data = await api.delete<{ deleted: number }>('/holdings/all');
      if (!data || data.deleted === 0) setProblem({ message: DELETE_MESSAGES.noneToDelete, details: [] });
      else onDone(data.deleted === 1 ? '1 holding was deleted.' : `${data.deleted} holdings were deleted.`);
    } catch (err) {
      console.warn('Delete all failed', err);
      setProblem({ message: DELETE_MESSAGES.all, details: [] });
    }
  };

  const confirm = async () => {
    if (!target) return;
    setBusy(true);
    setProblem(null);
    if (target.kind === 'one') await deleteOne(target.row);
    else await deleteAll();
    await reload();
    setBusy(false);
    setTarget(null);
  };

  return {
    target,
    /** For the confirmation: which accounts' lots come back at their next upload. */
    comesBack: target?.kind === 'one' ? comesBackSentence(target.row, accountName) : '',
    busy,
    problem,
    ask: setTarget,
    cancel: () => setTarget(null),
    confirm,
    dismissProblem: () => setProblem(null),
    /** Delete All with nothing loaded: nothing to ask about. */
    reportNothingToDelete: () => setProblem({ message: DELETE_MESSAGES.noneToDelete, details: [] }),
  };
}
