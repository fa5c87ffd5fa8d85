import { instrumentKey } from '@app/common/market/tick-batch';
import type { AggregatedHolding } from '@app/common/portfolio/types';
import { BUILT_IN_TEMPLATES, templateDialogError, templateRules } from '@app/common/rules/index';
import { useId, useMemo, useState } from 'react';
import { ErrorBox } from '../../../../components/ErrorBox.tsx';
import '../../../../styles/rule-dialogs.css';
import '../../../../styles/rule-manage.css';
import { Modal } from '../../../../components/Modal.tsx';
import { saveAllProblem, type SaveProblem } from '../ruleDrafts.ts';
import { rulesApi } from '../rulesApi.ts';
import { TargetAccountField } from '../TriggerFields.tsx';

interface TemplatesDialogProps {
  rows: readonly AggregatedHolding[];
  accountNames: ReadonlyMap<string, string>;
  onClose: () => void;
  /**
   * `skipped` names each holding left out: its price has already crossed the level, or (the
   * volatility stop) it lacks the daily history an ATR needs.
   */
  onApplied: (count: number, templateName: string, skipped: string[]) => void;
}

const keyOf = (row: AggregatedHolding) => instrumentKey(row.exchange, row.symbol);

/**
 * Apply Rule Templates (docs/exit-rules.md): a template, the holdings, and all accounts or one; saved
 * in one call, measured from each account's own buy price (or, for the volatility stop, from
 * today's price and the stock's daily history). A holding whose price has already crossed the
 * level (it would fire at once), or without enough history for an ATR, is skipped and named; any
 * other problem saves nothing.
 */
export default function TemplatesDialog({ rows, accountNames, onClose, onApplied }: TemplatesDialogProps) {
  const id = useId();
  const [templateId, setTemplateId] = useState<string | null>(BUILT_IN_TEMPLATES[0]?.id ?? null);
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [scope, setScope] = useState<'all' | 'specific'>('all');
  const [accountId, setAccountId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<SaveProblem | null>(null);

  const accounts = useMemo(() => {
    const ids = new Set(rows.flatMap((row) => row.accounts.map((a) => String(a.broker_account_id))));
    return [...ids].map((accountKey) => ({
      id: accountKey,
      name: accountNames.get(accountKey) ?? 'Account',
    }));
  }, [rows, accountNames]);
  // One account's rules can only cover what that account holds.
  const choices = useMemo(
    () =>
      scope === 'specific' && accountId
        ? rows.filter((row) => row.accounts.some((a) => String(a.broker_account_id) === accountId))
        : rows,
    [rows, scope, accountId],
  );
  const holdings = choices.map(keyOf).filter((key) => picked.has(key));
  const allPicked = holdings.length > 0 && holdings.length === choices.length;
  const state = {
    template_id: templateId,
    holdings,
    scope,
    account_id: scope === 'specific' ? accountId : null,
  };

  const togglePick = (key: string) =>
    setPicked((prev) => {
      const next = new Set(prev);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const apply = async () => {
    const why = templateDialogError(state);
    const template = BUILT_IN_TEMPLATES.find((t) => t.id === templateId);
    if (why || !template) {
      setProblem({ message: why ?? 'Please choose a template', details: [], guidance: null });
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const accountsOf = (key: string) =>
        rows.find((row) => keyOf(row) === key)?.accounts.map((a) => String(a.broker_account_id)) ?? [];
      const result = await rulesApi.createMany(templateRules(template, state, accountsOf));
      const skipped = result.skipped.map((s) => {
        const account = s.target_account_id
          ? ` in ${accountNames.get(s.target_account_id) ?? 'Account'}`
          : '';
        return `${s.symbol}${account}: ${s.reason}`;
      });
      onApplied(result.created, template.name, skipped);
    } catch (err) {
      setProblem(saveAllProblem(err));
      setBusy(false);
    }
  };

  return (
    <Modal
      title="Apply Rule Templates"
      onClose={onClose}
      busy={busy}
      actions={
        <button type="button" className="btn btn-primary" onClick={() => void apply()} disabled={busy}>
          {busy ? 'Applying...' : 'Apply Template'}
        </button>
      }
    >
      <fieldset className="wizard-fieldset">
        <legend className="wizard-legend">Template</legend>
        {BUILT_IN_TEMPLATES.map((template) => (
          <label key={template.id} className="choice">
            <input
              type="radio"
              name={`${id}-template`}
              checked={templateId === template.id}
              onChange={() => setTemplateId(template.id)}
              data-autofocus
            />
            <span>
              <strong>{template.name}</strong>
              <small>{template.description}.</small>
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset className="wizard-fieldset">
        <legend className="wizard-legend">Apply to</legend>
        <div className="choice-row">
          <label className="choice choice-inline">
            <input
              type="radio"
              name={`${id}-scope`}
              checked={scope === 'all'}
              onChange={() => setScope('all')}
            />
            <span>All accounts</span>
          </label>
          <label className="choice choice-inline">
            <input
              type="radio"
              name={`${id}-scope`}
              checked={scope === 'specific'}
              onChange={() => {
                setScope('specific');
                setAccountId((prev) => prev ?? accounts[0]?.id ?? null);
              }}
            />
            <span>One account</span>
          </label>
        </div>
        {scope === 'specific' ? (
          <TargetAccountField id={id} value={accountId} accounts={accounts} onChange={setAccountId} />
        ) : null}
      </fieldset>
      <fieldset className="wizard-fieldset">
        <legend className="wizard-legend">Holdings</legend>
        <label className="check check-all">
          <input
            type="checkbox"
            checked={allPicked}
            onChange={() => setPicked(allPicked ? new Set() : new Set(choices.map(keyOf)))}
          />
          <span>{holdings.length > 0 ? `${holdings.length} of ${choices.length} chosen` : 'Choose all'}</span>
        </label>
        <ul className="template-holdings">
          {choices.map((row) => (
            <li key={keyOf(row)}>
              <label className="check">
                <input
                  type="checkbox"
                  checked={picked.has(keyOf(row))}
                  onChange={() => togglePick(keyOf(row))}
                />
                <span>
                  <strong>{row.symbol}</strong> <small className="text-muted">{row.exchange}</small>
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <ErrorBox message={problem?.message} details={problem?.details} onDismiss={() => setProblem(null)}>
        {problem?.guidance ? <p>{problem.guidance}</p> : null}
      </ErrorBox>
    </Modal>
  );
}
