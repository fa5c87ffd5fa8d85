import type { ApiPositionRule } from '@app/common/api/rules';
import { ShieldIcon } from '../../../components/icons.tsx';
import type { RulesDialog } from './useRulesPage.ts';
import { tallyRules } from './ruleView.ts';

interface RulesBarProps {
  rules: readonly ApiPositionRule[];
  onOpen: (dialog: RulesDialog) => void;
}

/** Below the table: how the rules stand, and the rule dialogs (new on one screen, the wizard, templates, manage). */
export function RulesBar({ rules, onOpen }: RulesBarProps) {
  const tally = tallyRules(rules);
  return (
    <section className="rules-bar card" aria-labelledby="rules-bar-title">
      <div className="rules-bar-summary">
        <span className="rules-bar-icon" aria-hidden="true">
          <ShieldIcon size={20} />
        </span>
        <div>
          <h2 id="rules-bar-title" className="rules-bar-title">
            Exit rules
          </h2>
          <p className="rules-bar-tally">
            {rules.length === 0 ? (
              'No rules yet. Price Guard adds one to every holding.'
            ) : (
              <>
                <span>{tally.active} active</span>
                {tally.triggered > 0 ? (
                  <span className="text-triggered">{tally.triggered} triggered</span>
                ) : null}
                {tally.inactive > 0 ? <span>{tally.inactive} inactive</span> : null}
              </>
            )}
          </p>
        </div>
      </div>
      <div className="rules-bar-actions" role="group" aria-label="Rule tools">
        <button type="button" className="btn btn-primary btn-sm" onClick={() => onOpen({ kind: 'quick' })}>
          New Rule
        </button>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          title="Step by step: name, scope, trigger, action"
          onClick={() => onOpen({ kind: 'wizard' })}
        >
          Create Rule
        </button>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => onOpen({ kind: 'templates' })}
        >
          Apply Templates
        </button>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => onOpen({ kind: 'manage' })}>
          Manage Rules
        </button>
      </div>
    </section>
  );
}
