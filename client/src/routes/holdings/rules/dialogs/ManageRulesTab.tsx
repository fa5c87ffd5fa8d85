import type { ApiPositionRule } from '@app/common/api/rules';
import { useId, useMemo, useState } from 'react';
import { ErrorBox } from '../../../../components/ErrorBox.tsx';
import { EmptyState } from '../../../../components/EmptyState.tsx';
import { ShieldIcon } from '../../../../components/icons.tsx';
import { ConfirmDialog } from '../../ConfirmDialog.tsx';
import { updateRuleError } from '../ruleDrafts.ts';
import { rulesApi, type BulkAction } from '../rulesApi.ts';
import { ManageRuleRow } from './ManageRuleRow.tsx';

interface ManageRulesTabProps {
  rules: readonly ApiPositionRule[];
  accountNames: ReadonlyMap<string, string>;
  onChanged: () => Promise<void>;
}

const BULK_DONE: Record<BulkAction, string> = { enable: 'enabled', disable: 'disabled', delete: 'deleted' };

/** The Rules tab: checkboxes with bulk Enable / Disable / Delete, then one row per rule. */
export function ManageRulesTab({ rules, accountNames, onChanged }: ManageRulesTabProps) {
  const id = useId();
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const sorted = useMemo(
    () =>
      [...rules].sort((a, b) => a.symbol.localeCompare(b.symbol) || a.created_at.localeCompare(b.created_at)),
    [rules],
  );
  // Rules deleted elsewhere drop out of the selection.
  const selected = sorted.filter((rule) => picked.has(rule.id)).map((rule) => rule.id);
  const allPicked = selected.length > 0 && selected.length === sorted.length;

  const toggle = (ruleId: string) =>
    setPicked((prev) => {
      const next = new Set(prev);
      if (!next.delete(ruleId)) next.add(ruleId);
      return next;
    });
  const bulk = async (action: BulkAction) => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      await rulesApi.bulkAction(selected, action);
      setDone(`${selected.length} ${selected.length === 1 ? 'rule' : 'rules'} ${BULK_DONE[action]}.`);
      setPicked(new Set());
      await onChanged();
    } catch (err) {
      setError(updateRuleError(err));
    } finally {
      setBusy(false);
      setConfirmDelete(false);
    }
  };

  if (sorted.length === 0) {
    return (
      <EmptyState icon={<ShieldIcon size={28} />} title="No rules yet" headingLevel={3}>
        Create a rule, apply a template, or use Price Guard to guard every holding at once.
      </EmptyState>
    );
  }
  return (
    <div className="manage-rules">
      <div className="manage-toolbar">
        <label className="check" htmlFor={`${id}-all`}>
          <input
            id={`${id}-all`}
            type="checkbox"
            checked={allPicked}
            ref={(box) => {
              if (box) box.indeterminate = selected.length > 0 && !allPicked;
            }}
            onChange={() => setPicked(allPicked ? new Set() : new Set(sorted.map((rule) => rule.id)))}
          />
          <span>{selected.length > 0 ? `${selected.length} selected` : 'Select all'}</span>
        </label>
        <div className="manage-bulk" role="group" aria-label="Selected rules">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={busy || selected.length === 0}
            onClick={() => void bulk('enable')}
          >
            Enable
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={busy || selected.length === 0}
            onClick={() => void bulk('disable')}
          >
            Disable
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-sm btn-danger-text"
            disabled={busy || selected.length === 0}
            onClick={() => setConfirmDelete(true)}
          >
            Delete
          </button>
        </div>
      </div>
      <ErrorBox message={error} onDismiss={() => setError(null)} />
      {done ? (
        <p className="manage-done" role="status">
          {done}
        </p>
      ) : null}
      <ul className="manage-list" aria-label="Rules">
        {sorted.map((rule) => (
          <ManageRuleRow
            key={rule.id}
            rule={rule}
            accountName={rule.target_account_id ? accountNames.get(rule.target_account_id) : undefined}
            selected={picked.has(rule.id)}
            onSelect={() => toggle(rule.id)}
            onChanged={onChanged}
          />
        ))}
      </ul>
      {confirmDelete ? (
        <ConfirmDialog
          title={`Delete ${selected.length} ${selected.length === 1 ? 'rule' : 'rules'}?`}
          confirmLabel="Delete"
          busyLabel="Deleting..."
          busy={busy}
          onConfirm={() => void bulk('delete')}
          onCancel={() => setConfirmDelete(false)}
        >
          <p>The selected rules stop alerting you. Their past alerts stay in History.</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
