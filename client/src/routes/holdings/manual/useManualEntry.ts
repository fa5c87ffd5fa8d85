import { validateManualRows, type ManualHolding } from '@app/common/holdings/manual';
import { instrumentKey } from '@app/common/market/tick-batch';
import type { ApiNewHoldingsProtection } from '@app/common/rules/index';
import { useState } from 'react';
import { ApiError, api } from '../../../api/client.ts';
import {
  canRemoveRow,
  describeAddFailures,
  emptyRow,
  initialManualRows,
  type AddFailure,
  type AddFailureReport,
  type ManualRow,
} from './manualEntry.ts';

export type ManualFeedback =
  { kind: 'invalid'; errors: string[] } | { kind: 'failed'; report: AddFailureReport; added: number } | null;

/**
 * The manual entry form's rows and its Save All: each valid row is posted on its own
 * (`POST /api/holdings/manual`); rows the server refused stay in the form, and any success
 * calls `onSaved` (a partial success still refreshes the holdings) with what Price Guard protected.
 */
export function useManualEntry(
  variant: 'example' | 'single',
  onSaved: (added: number, allSaved: boolean, guard: ApiNewHoldingsProtection | null) => void,
) {
  const [rows, setRows] = useState<ManualRow[]>(() => initialManualRows(variant));
  const [saving, setSaving] = useState(false);
  const [feedback, setFeedback] = useState<ManualFeedback>(null);

  const updateRow = (key: number, change: Partial<ManualRow>) =>
    setRows((prev) => prev.map((row) => (row.key === key ? { ...row, ...change } : row)));
  const addRow = () => setRows((prev) => [...prev, emptyRow()]);
  const removeRow = (key: number) =>
    setRows((prev) => prev.filter((row) => row.key !== key || !canRemoveRow(prev, row)));

  const saveAll = async () => {
    const { valid, errors } = validateManualRows(rows);
    if (errors.length > 0) return setFeedback({ kind: 'invalid', errors });
    if (valid.length === 0) return setFeedback({ kind: 'invalid', errors: ['Row 1: Symbol is required'] });
    setFeedback(null);
    setSaving(true);
    const failures: AddFailure[] = [];
    let guard: ApiNewHoldingsProtection | null = null;
    for (const holding of valid) {
      const outcome = await addHolding(holding);
      if ('message' in outcome) failures.push(outcome);
      else if (outcome.price_guard) guard = addProtection(guard, outcome.price_guard);
    }
    setSaving(false);
    const added = valid.length - failures.length;
    if (failures.length > 0) {
      const failed = new Set(failures.map((f) => instrumentKey(f.exchange, f.symbol)));
      setRows((prev) => {
        const kept = prev.filter((row) =>
          failed.has(`${row.exchange || 'NSE'}:${row.symbol.trim().toUpperCase()}`),
        );
        return kept.length > 0 ? kept.map((row) => ({ ...row, example: false })) : [emptyRow()];
      });
      setFeedback({ kind: 'failed', report: describeAddFailures(failures, valid.length), added });
    } else {
      setRows(initialManualRows('single'));
    }
    if (added > 0) onSaved(added, failures.length === 0, guard);
  };

  return {
    rows,
    saving,
    feedback,
    dismissFeedback: () => setFeedback(null),
    updateRow,
    addRow,
    removeRow,
    canRemove: (row: ManualRow) => canRemoveRow(rows, row),
    saveAll,
  };
}

/** What "Protect new holdings" did for each row, added up (null while the setting is off). */
function addProtection(
  sum: ApiNewHoldingsProtection | null,
  one: ApiNewHoldingsProtection,
): ApiNewHoldingsProtection {
  return {
    protected: (sum?.protected ?? 0) + one.protected,
    no_price: (sum?.no_price ?? 0) + one.no_price,
    over_limit: (sum?.over_limit ?? 0) + one.over_limit,
  };
}

/** Posts one row: the server's answer, or why it failed. */
async function addHolding(
  holding: ManualHolding,
): Promise<{ price_guard: ApiNewHoldingsProtection | null } | AddFailure> {
  try {
    return await api.post<{ price_guard: ApiNewHoldingsProtection | null }>('/holdings/manual', holding);
  } catch (err) {
    if (!(err instanceof ApiError)) console.warn('Adding a holding failed', err);
    return {
      symbol: holding.symbol,
      exchange: holding.exchange,
      message: err instanceof ApiError ? err.message : '',
    };
  }
}
