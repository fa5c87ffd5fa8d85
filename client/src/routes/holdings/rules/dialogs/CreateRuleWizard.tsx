import type { ApiPositionRule } from '@app/common/api/rules';
import { instrumentKey } from '@app/common/market/tick-batch';
import type { AggregatedHolding } from '@app/common/portfolio/types';
import { WIZARD_STEPS } from '@app/common/rules/index';
import { useState } from 'react';
import { ErrorBox } from '../../../../components/ErrorBox.tsx';
import { useQuote } from '../../../../live/hooks.ts';
import '../../../../styles/rule-dialogs.css';
import { Modal } from '../../../../components/Modal.tsx';
import { createRuleError } from '../ruleDrafts.ts';
import { rulesApi } from '../rulesApi.ts';
import {
  initialWizardForm,
  WIZARD_STEP_NAMES,
  wizardProblem,
  wizardRequest,
  type WizardForm,
} from './wizardForm.ts';
import { ActionStep, NameStep, ScopeStep, TriggerStep } from './WizardSteps.tsx';

interface CreateRuleWizardProps {
  rows: readonly AggregatedHolding[];
  accountNames: ReadonlyMap<string, string>;
  /** Start with this holding chosen (`NSE:RELIANCE`). */
  holdingKey?: string;
  onClose: () => void;
  onCreated: (rule: ApiPositionRule) => void;
}

const keyOf = (row: AggregatedHolding) => instrumentKey(row.exchange, row.symbol);

/** Create Position Rule (docs/exit-rules.md): name, scope, trigger, action; Next and Previous. */
export default function CreateRuleWizard({
  rows,
  accountNames,
  holdingKey,
  onClose,
  onCreated,
}: CreateRuleWizardProps) {
  const [step, setStep] = useState(1);
  const [form, setForm] = useState<WizardForm>(() =>
    initialWizardForm(holdingKey ?? (rows[0] ? keyOf(rows[0]) : '')),
  );
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const row = rows.find((r) => keyOf(r) === form.holding);
  const quote = useQuote(form.holding);
  const ltp = quote?.ltp ?? row?.current_price ?? null;

  const change = (patch: Partial<WizardForm>) => {
    setForm((prev) => ({ ...prev, ...patch }));
    setProblem(null);
  };
  const next = () => {
    const why = wizardProblem(step, form, ltp);
    setProblem(why);
    if (!why) setStep((s) => Math.min(WIZARD_STEPS, s + 1));
  };
  const create = async () => {
    const why = wizardProblem(4, form, ltp);
    if (why) {
      setProblem(why);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      onCreated(await rulesApi.create(wizardRequest(form, ltp)));
    } catch (err) {
      setProblem(createRuleError(err));
      setBusy(false);
    }
  };

  const last = step === WIZARD_STEPS;
  return (
    <Modal
      title="Create Position Rule"
      onClose={onClose}
      busy={busy}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          {step > 1 ? (
            <button
              type="button"
              className="btn btn-secondary"
              disabled={busy}
              onClick={() => {
                setProblem(null);
                setStep((s) => s - 1);
              }}
            >
              Previous
            </button>
          ) : null}
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy}
            onClick={() => (last ? void create() : next())}
          >
            {last ? (busy ? 'Creating...' : 'Create Rule') : 'Next'}
          </button>
        </>
      }
    >
      <ol className="wizard-steps" aria-label={`Step ${step} of ${WIZARD_STEPS}`}>
        {WIZARD_STEP_NAMES.map((name, index) => (
          <li
            key={name}
            data-state={index + 1 < step ? 'done' : index + 1 === step ? 'current' : 'todo'}
            aria-current={index + 1 === step ? 'step' : undefined}
          >
            <span className="wizard-step-number" aria-hidden="true">
              {index + 1}
            </span>
            <span className="wizard-step-name">{name}</span>
          </li>
        ))}
      </ol>
      <div className="wizard-body" key={step}>
        {step === 1 ? <NameStep form={form} rows={rows} onChange={change} /> : null}
        {step === 2 ? (
          <ScopeStep form={form} row={row} accountNames={accountNames} onChange={change} />
        ) : null}
        {step === 3 ? <TriggerStep form={form} ltp={ltp} onChange={change} /> : null}
        {step === 4 ? <ActionStep form={form} row={row} accountNames={accountNames} ltp={ltp} /> : null}
      </div>
      <ErrorBox message={problem} onDismiss={() => setProblem(null)} />
    </Modal>
  );
}
