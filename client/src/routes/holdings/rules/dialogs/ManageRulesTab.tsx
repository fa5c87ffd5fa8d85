import type { ApiPositionRule } from '@app/common/api/rules';
import { instrumentKey } from '@app/common/market/tick-batch';
import { useId, useMemo, useState } from 'react';
import { ErrorBox } from '../../../../components/ErrorBox.tsx';
import { EmptyState } from '../../../../components/EmptyState.tsx';
import { ShieldIcon } from '../../../../components/icons.tsx';
import { useQuotesVersion } from '../../../../live/hooks.ts';
import { quoteStore } from '../../../../live/quoteStore.ts';
import { ConfirmDialog } from '../../ConfirmDialog.tsx';
import { levelStore } from '../levelStore.ts';
import { updateRuleError } from '../ruleDrafts.ts';
import { rulesApi, type BulkAction } from '../rulesApi.ts';
import { checkParts, lastCheck, liveLevels, sortRules, type RuleCheck, type RuleOrder } from '../ruleView.ts';
import { ManageRuleRow } from './ManageRuleRow.tsx';

interface ManageRulesTabProps {
  rules: readonly ApiPositionRule[];
  accountNames: ReadonlyMap<string, string>;
  onChanged: () => Promise<void>;
}

const BULK_DONE: Record<BulkAction, string> = { enable: 'enabled', disable: 'disabled', delete: 'deleted' };

/** The rule's last check now: the live quote and the live level when newer than the list's. */
function checkOf(rule: ApiPositionRule): RuleCheck | null {
  const live = quoteStore.get(instrumentKey(rule.exchange, rule.symbol));
  return lastCheck(rule, live, liveLevels(rule, levelStore.get(rule.id), live?.ltp).trigger);
}

/**
 * The Rules tab: checkboxes with bulk Enable / Disable / Delete, the order (by symbol, or nearest
 * to firing), then one row per rule with its last check, kept live.
 */
export function ManageRulesTab({ rules, accountNames, onChanged }: ManageRulesTabProps) {
  const id = useId();
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [order, setOrder] = useState<RuleOrder>('symbol');
  // Re-rendered by every quote batch, so the checks stay live; the order is taken when the list
  // or the choice changes, so rows do not jump on every tick.
  useQuotesVersion();
  const sorted = useMemo(
    () => sortRules(rules, order, (rule) => checkOf(rule)?.distance ?? null),
    [rules, order],
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
        <label className="manage-order">
          <span>Sort</span>
          <select
            className="select"
            value={order}
            onChange={(event) => setOrder(event.target.value as RuleOrder)}
          >
            <option value="symbol">By symbol</option>
            <option value="distance">Nearest to firing</option>
          </select>
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
            check={checkParts(rule.status, checkOf(rule))}
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
