import { Link } from 'react-router';
import { CheckCircleIcon, ShieldIcon, WalletIcon } from '../../components/icons.tsx';
import { ManualEntryForm } from '../holdings/manual/ManualEntryForm.tsx';

interface GettingStartedProps {
  hasHoldings: boolean;
  rulesDone: boolean;
  onHoldingsAdded: () => void;
}

const RULES_TOOLTIP = 'Add holdings first, then set up rules';

/** The Getting Started checklist (docs/holdings.md#holdings-and-dashboard-screens). */
export function GettingStarted({ hasHoldings, rulesDone, onHoldingsAdded }: GettingStartedProps) {
  return (
    <section className="card getting-started" aria-labelledby="getting-started-title">
      <h2 id="getting-started-title" className="card-title">
        Getting Started
      </h2>
      <p className="text-muted">
        {hasHoldings ? 'One step left: protect your holdings.' : 'Two steps and your portfolio is guarded.'}
      </p>
      <ol className="checklist">
        {/* The holdings step is shown until the user has any holdings. */}
        {hasHoldings ? null : (
          <li className="checklist-step">
            <StepMark done={false} number={1} />
            <div className="checklist-body">
              <h3 id="step-holdings-title">
                <WalletIcon size={18} /> Add Your Holdings
              </h3>
              <p className="text-muted">
                Type in a few stocks below, or{' '}
                <Link to="/holdings?upload=csv">upload your broker&apos;s file</Link> (CSV or XLSX), or
                connect your broker and your holdings follow it.
              </p>
              <Link to="/settings#brokers" className="btn btn-secondary btn-sm checklist-connect">
                Connect your broker
              </Link>
              <ManualEntryForm variant="example" labelledBy="step-holdings-title" onSaved={onHoldingsAdded} />
            </div>
          </li>
        )}
        <li className="checklist-step" data-done={rulesDone} value={2}>
          <StepMark done={rulesDone} number={2} />
          <div className="checklist-body">
            <h3>
              <ShieldIcon size={18} /> Set Up Alerts
            </h3>
            <p className="text-muted">
              {rulesDone
                ? 'Done. Your holdings have active rules.'
                : 'Price Guard adds a protective stop-loss alert to every holding in one step.'}
            </p>
            {rulesDone ? null : hasHoldings ? (
              <Link to="/holdings?magic-setup=true" className="btn btn-primary btn-sm">
                <ShieldIcon size={18} /> Price Guard
              </Link>
            ) : (
              <span className="tooltip-wrap" title={RULES_TOOLTIP}>
                <button
                  type="button"
                  className="btn btn-primary btn-sm"
                  disabled
                  aria-describedby="rules-step-hint"
                >
                  <ShieldIcon size={18} /> Price Guard
                </button>
                <span id="rules-step-hint" className="field-hint">
                  {RULES_TOOLTIP}
                </span>
              </span>
            )}
          </div>
        </li>
      </ol>
    </section>
  );
}

function StepMark({ done, number }: { done: boolean; number: number }) {
  return done ? (
    <span className="step-mark step-mark-done">
      <CheckCircleIcon size={24} />
      <span className="visually-hidden">Step {number}, done</span>
    </span>
  ) : (
    <span className="step-mark">
      <span aria-hidden="true">{number}</span>
      <span className="visually-hidden">Step {number}, to do</span>
    </span>
  );
}
