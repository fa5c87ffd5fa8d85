import type { ApiPositionRule } from '@app/common/api/rules';
import { formatInr } from '@app/common/format/money';
import { describeRule, isGeneratedName } from '@app/common/rules/index';
import { useId, useState } from 'react';
import { AdjustmentNote } from '../AdjustmentNote.tsx';
import { CheckLine } from '../CheckLine.tsx';
import { RuleActionButtons, RuleActionFeedback, RuleStatusBadge } from '../RuleParts.tsx';
import { useRuleActions } from '../useRuleActions.ts';
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
  const actions = useRuleActions(rule, onChanged);
  const description = describeRule(rule);

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
            {/* A generated name already says what the rule does. */}
            {isGeneratedName(rule.rule_name, rule) ? null : `${description} · `}
            trigger {formatInr(rule.computed_trigger_price)} ·{' '}
            {rule.rule_scope === 'all_holdings' ? 'All holdings' : (accountName ?? 'One account')}
          </span>
          {check ? <CheckLine parts={check} className="manage-row-check" /> : null}
          <AdjustmentNote adjustments={rule.adjustments} />
        </div>
        <RuleStatusBadge rule={rule} />
      </div>
      {editing ? (
        <RuleEditForm
          rule={rule}
          onCancel={() => setEditing(false)}
          onSave={async (change) => {
            if (await actions.update(change)) setEditing(false);
          }}
          busy={actions.busy}
        />
      ) : (
        <RuleActionButtons rule={rule} actions={actions} subject={`${rule.symbol}: ${rule.rule_name}`}>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={actions.busy}
            aria-label={`Edit ${rule.symbol}: ${rule.rule_name}`}
            onClick={() => setEditing(true)}
          >
            Edit
          </button>
        </RuleActionButtons>
      )}
      <RuleActionFeedback rule={rule} description={description} actions={actions} />
    </li>
  );
}
