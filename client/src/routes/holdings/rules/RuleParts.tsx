/**
 * What a saved rule shows wherever it is listed (an account's row, Manage Rules): its status
 * badge, its Enable/Disable and Delete buttons, and the delete confirmation.
 */
import type { ApiPositionRule } from '@app/common/api/rules';
import { formatInr } from '@app/common/format/money';
import type { EnableQuestion } from '@app/common/rules/index';
import type { ReactNode } from 'react';
import { ErrorBox } from '../../../components/ErrorBox.tsx';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { STATUS_LABELS } from './ruleView.ts';
import type { RuleActions } from './useRuleActions.ts';

/** Active, Triggered (orange) or Inactive; "Paused: sold at Zerodha" for a rule a broker sync paused. */
export function RuleStatusBadge({ rule }: { rule: Pick<ApiPositionRule, 'status' | 'paused_at_broker'> }) {
  const label =
    rule.status === 'INACTIVE' && rule.paused_at_broker
      ? `Paused: sold at ${rule.paused_at_broker}`
      : STATUS_LABELS[rule.status];
  return <span className={`badge rule-status rule-status-${rule.status.toLowerCase()}`}>{label}</span>;
}

/**
 * Enable or Disable, any other buttons (`children`), then Delete, which asks first. `subject`
 * names the rule in the buttons' labels ('Delete <subject>').
 */
export function RuleActionButtons({
  rule,
  actions,
  subject,
  children,
}: {
  rule: ApiPositionRule;
  actions: RuleActions;
  subject: string;
  children?: ReactNode;
}) {
  const verb = rule.is_active ? 'Disable' : 'Enable';
  return (
    <div className="rule-actions">
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        disabled={actions.busy}
        onClick={() => void actions.toggle()}
        aria-label={`${verb} ${subject}`}
      >
        {verb}
      </button>
      {children}
      <button
        type="button"
        className="btn btn-ghost btn-sm btn-danger-text"
        disabled={actions.busy}
        onClick={actions.askDelete}
        aria-label={`Delete ${subject}`}
      >
        Delete
      </button>
    </div>
  );
}

/**
 * The row's error, and the delete confirmation while it is open: '<symbol>: <what it does>.',
 * then `warning` if any, and that its past alerts stay in History.
 */
export function RuleActionFeedback({
  rule,
  description,
  actions,
  warning,
}: {
  rule: ApiPositionRule;
  description: string;
  actions: RuleActions;
  warning?: string;
}) {
  return (
    <>
      <ErrorBox message={actions.error} onDismiss={actions.dismissError} />
      {actions.question ? <EnableQuestionDialog actions={actions} question={actions.question} /> : null}
      {actions.confirming ? (
        <ConfirmDialog
          title="Delete this rule?"
          confirmLabel="Delete"
          busyLabel="Deleting..."
          busy={actions.busy}
          onConfirm={() => void actions.remove()}
          onCancel={actions.cancelDelete}
        >
          <p>
            {rule.symbol}: {description}. {warning ? `${warning} ` : null}Its past alerts stay in History.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/**
 * Asked before enabling a fixed rule whose level the price has crossed: enable it at the level
 * measured from the current price, or leave it off (a price rule can only be edited).
 */
function EnableQuestionDialog({ actions, question }: { actions: RuleActions; question: EnableQuestion }) {
  const moved = question.movedLevel;
  return (
    <Modal
      title="Enable this rule?"
      size="sm"
      busy={actions.busy}
      onClose={actions.closeQuestion}
      {...(moved === null
        ? {
            footer: (
              <button type="button" className="btn btn-secondary" onClick={actions.closeQuestion}>
                Close
              </button>
            ),
          }
        : {
            actions: (
              <button
                type="button"
                className="btn btn-primary"
                disabled={actions.busy}
                onClick={() => void actions.enableFromPrice()}
              >
                {actions.busy ? 'Enabling...' : `Enable at ${formatInr(moved)}`}
              </button>
            ),
          })}
    >
      <p>{question.text}</p>
    </Modal>
  );
}
