import type { ApiPositionRule } from '@app/common/api/rules';
import { formatInr } from '@app/common/format/money';
import { describeRule } from '@app/common/rules/index';
import { useId, useState } from 'react';
import { ErrorBox } from '../../../../components/ErrorBox.tsx';
import { ConfirmDialog } from '../../ConfirmDialog.tsx';
import { AdjustmentNote } from '../AdjustmentNote.tsx';
import { deleteRuleError, updateRuleError } from '../ruleDrafts.ts';
import { rulesApi } from '../rulesApi.ts';
import { CheckLine } from '../CheckLine.tsx';
import { STATUS_LABELS } from '../ruleView.ts';
import { RuleEditForm } from './RuleEditForm.tsx';

interface ManageRuleRowProps {
  rule: ApiPositionRule;
  /** The target account's name, for account-specific rules. */
  accountName: string | undefined;
  /** The last check, as the rules list words it (null for a rule that is off). */
  check: readonly string[] | null;
  selected: boolean;
  onSelect: () => void;
  onChanged: () => Promise<void>;
}

/** One rule in the manager: checkbox, what it does, level, last check, status, Enable/Disable, Edit, Delete. */
export function ManageRuleRow({
  rule,
  accountName,
  check,
  selected,
  onSelect,
  onChanged,
}: ManageRuleRowProps) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const description = describeRule(rule);

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

  return (
    <li className="manage-row" data-status={rule.status} data-rule-id={rule.id}>
      <div className="manage-row-main">
        <input
          id={`${id}-pick`}
          type="checkbox"
          className="manage-pick"
          checked={selected}
          onChange={onSelect}
        />
        <div className="manage-row-text">
          <label htmlFor={`${id}-pick`} className="manage-row-title">
            <strong>{rule.symbol}</strong> <span className="badge">{rule.exchange}</span>{' '}
            <span className="manage-row-name">{rule.rule_name}</span>
          </label>
          <span className="manage-row-meta">
            {description} · trigger {formatInr(rule.computed_trigger_price)} ·{' '}
            {rule.rule_scope === 'all_holdings' ? 'All holdings' : (accountName ?? 'One account')}
          </span>
          {check ? <CheckLine parts={check} className="manage-row-check" /> : null}
          <AdjustmentNote adjustments={rule.adjustments} />
        </div>
        <span className={`badge rule-status rule-status-${rule.status.toLowerCase()}`}>
          {STATUS_LABELS[rule.status]}
        </span>
      </div>
      {editing ? (
        <RuleEditForm
          rule={rule}
          onCancel={() => setEditing(false)}
          onSave={async (change) => {
            if (await run(() => rulesApi.update(rule.id, change), updateRuleError)) setEditing(false);
          }}
          busy={busy}
        />
      ) : (
        <div className="rule-actions">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={busy}
            aria-label={`${rule.is_active ? 'Disable' : 'Enable'} ${rule.symbol}: ${rule.rule_name}`}
            onClick={() => void run(() => rulesApi.setActive(rule.id, !rule.is_active), updateRuleError)}
          >
            {rule.is_active ? 'Disable' : 'Enable'}
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={busy}
            aria-label={`Edit ${rule.symbol}: ${rule.rule_name}`}
            onClick={() => setEditing(true)}
          >
            Edit
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-sm btn-danger-text"
            disabled={busy}
            aria-label={`Delete ${rule.symbol}: ${rule.rule_name}`}
            onClick={() => setConfirming(true)}
          >
            Delete
          </button>
        </div>
      )}
      <ErrorBox message={error} onDismiss={() => setError(null)} />
      {confirming ? (
        <ConfirmDialog
          title="Delete this rule?"
          confirmLabel="Delete"
          busyLabel="Deleting..."
          busy={busy}
          onConfirm={() =>
            void run(() => rulesApi.remove(rule.id), deleteRuleError).then(() => setConfirming(false))
          }
          onCancel={() => setConfirming(false)}
        >
          <p>
            {rule.symbol}: {description}. Its past alerts stay in History.
          </p>
        </ConfirmDialog>
      ) : null}
    </li>
  );
}
