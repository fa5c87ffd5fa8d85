import type { ApiPositionRule } from '@app/common/api/rules';
import type { ApiNotificationEndpoint } from '@app/common/endpoints/validation';
import { formatInr } from '@app/common/format/money';
import { instrumentKey } from '@app/common/market/tick-batch';
import type { AggregatedHolding } from '@app/common/portfolio/types';
import { previewWords, RULE_MESSAGES } from '@app/common/rules/index';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { api, isAbortError } from '../../../../api/client.ts';
import { ErrorBox } from '../../../../components/ErrorBox.tsx';
import { useQuote } from '../../../../live/hooks.ts';
import '../../../../styles/rule-dialogs.css';
import { Modal } from '../../../../components/Modal.tsx';
import { BacktestPanel } from '../backtest/BacktestPanel.tsx';
import { createRuleError } from '../ruleDrafts.ts';
import { rulesApi } from '../rulesApi.ts';
import {
  AtrLevelNote,
  AtrPeriodField,
  TriggerTypeField,
  TriggerValueField,
  ValueTypeField,
} from '../TriggerFields.tsx';
import {
  generatedName,
  initialQuickRule,
  quickRuleAccounts,
  quickRulePreview,
  quickRuleProblem,
  quickRuleRequest,
  withKind,
  withUnit,
  type QuickRuleForm,
} from './quickRule.ts';

interface QuickRuleDialogProps {
  rows: readonly AggregatedHolding[];
  accountNames: ReadonlyMap<string, string>;
  onClose: () => void;
  onCreated: (rule: ApiPositionRule) => void;
  /** Opens the 4-step wizard instead (the full flow). */
  onWizard: () => void;
}

const keyOf = (row: AggregatedHolding) => instrumentKey(row.exchange, row.symbol);

/**
 * New rule on one screen (issue #28 item 8), as a Kite GTT: holding, account, kind, level (a
 * price first), where the alert goes, and a generated name; Create. 'Step by step' opens the
 * wizard.
 */
export default function QuickRuleDialog({
  rows,
  accountNames,
  onClose,
  onCreated,
  onWizard,
}: QuickRuleDialogProps) {
  const id = useId();
  const [form, setForm] = useState<QuickRuleForm>(() => initialQuickRule(rows[0] ? keyOf(rows[0]) : ''));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const row = rows.find((r) => keyOf(r) === form.holding);
  const quote = useQuote(form.holding);
  const ltp = quote?.ltp ?? row?.current_price ?? null;
  const preview = quickRulePreview(form, ltp);
  const accounts = quickRuleAccounts(row);
  const name = generatedName(form);

  const change = (next: QuickRuleForm) => {
    setForm(next);
    setProblem(null);
  };
  const create = async () => {
    const why = quickRuleProblem(form, ltp);
    if (why) {
      setProblem(why);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      onCreated(await rulesApi.create(quickRuleRequest(form, ltp)));
    } catch (err) {
      setProblem(createRuleError(err));
      setBusy(false);
    }
  };

  return (
    <Modal
      title="New rule"
      onClose={onClose}
      busy={busy}
      actions={
        <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void create()}>
          {busy ? 'Creating...' : 'Create rule'}
        </button>
      }
    >
      <form
        className="quick-rule"
        aria-label="New rule"
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <div className="quick-rule-row">
          <div className="field">
            <label className="field-label" htmlFor={`${id}-holding`}>
              Holding
            </label>
            <select
              id={`${id}-holding`}
              className="select"
              value={form.holding}
              data-autofocus
              onChange={(event) => change({ ...form, holding: event.target.value, accountId: null })}
            >
              {rows.map((r) => (
                <option key={keyOf(r)} value={keyOf(r)}>
                  {r.symbol} ({r.exchange})
                </option>
              ))}
            </select>
          </div>
          {accounts.length > 1 ? (
            <div className="field">
              <label className="field-label" htmlFor={`${id}-account`}>
                Account
              </label>
              <select
                id={`${id}-account`}
                className="select"
                value={form.accountId ?? ''}
                onChange={(event) => change({ ...form, accountId: event.target.value || null })}
              >
                <option value="">All {accounts.length} accounts</option>
                {accounts.map((account) => (
                  <option key={account} value={account}>
                    {accountNames.get(account) ?? 'Account'}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
        </div>
        <p className="quick-rule-ltp text-muted">
          {ltp === null ? RULE_MESSAGES.noPrice : `LTP ${formatInr(ltp)}`}
          {accounts.length === 1 ? ` · ${accountNames.get(accounts[0]!) ?? 'one account'}` : null}
        </p>
        <div className="quick-rule-row quick-rule-level">
          <TriggerTypeField
            id={id}
            value={form.trigger_type}
            onChange={(kind) => change(withKind(form, kind))}
          />
          <TriggerValueField
            id={id}
            className="field quick-rule-value"
            value={form.trigger_value}
            valueType={form.value_type}
            describedBy={`${id}-preview`}
            invalid={!preview.ok && preview.problem !== 'price' && form.trigger_value !== ''}
            onChange={(trigger_value) => change({ ...form, trigger_value })}
          />
          <ValueTypeField
            id={id}
            className="field quick-rule-unit"
            spelledOut
            value={form.value_type}
            triggerType={form.trigger_type}
            onChange={(value_type) => change(withUnit(form, value_type))}
          />
          {form.value_type === 'ATR' ? (
            <AtrPeriodField
              id={id}
              className="field quick-rule-period"
              value={form.atr_period}
              onChange={(atr_period) => change({ ...form, atr_period })}
            />
          ) : null}
        </div>
        <p id={`${id}-preview`} className="rule-draft-preview" aria-live="polite">
          {form.trigger_value === '' ? (
            <span className="text-muted">Type the price at which to alert you.</span>
          ) : preview.ok ? (
            <>
              {previewWords(form.trigger_type).lead} <strong>{formatInr(preview.triggerPrice)}</strong>
              {previewWords(form.trigger_type).note}
            </>
          ) : form.value_type === 'ATR' && preview.problem === 'price' ? (
            <AtrLevelNote
              triggerType={form.trigger_type}
              multiple={form.trigger_value}
              period={form.atr_period}
              note={preview.error}
            />
          ) : preview.problem === 'price' ? (
            <span className="text-muted">The level is set from the next price when you create the rule.</span>
          ) : (
            <span className="text-loss">{preview.error}</span>
          )}
        </p>
        {form.holding ? <BacktestPanel draft={form} /> : null}
        <AlertChannels />
        <div className="field">
          <label className="field-label" htmlFor={`${id}-name`}>
            Name <span className="text-muted">(optional)</span>
          </label>
          <input
            id={`${id}-name`}
            className="input"
            maxLength={100}
            value={form.rule_name}
            placeholder={name ?? 'Named after its level'}
            onChange={(event) => change({ ...form, rule_name: event.target.value })}
          />
        </div>
        <button type="submit" hidden />
      </form>
      <ErrorBox message={problem} onDismiss={() => setProblem(null)} />
      <p className="quick-rule-more text-muted">
        A rule with a scope, a name and a review first:{' '}
        <button type="button" className="quick-rule-wizard" onClick={onWizard} disabled={busy}>
          Step by step…
        </button>
      </p>
    </Modal>
  );
}

/** Where the alert goes: the app, and each verified, active address; a link to change them. */
function AlertChannels() {
  const [endpoints, setEndpoints] = useState<ApiNotificationEndpoint[] | null | 'failed'>(null);
  useEffect(() => {
    const controller = new AbortController();
    api
      .get<ApiNotificationEndpoint[]>('/notification-endpoints', { signal: controller.signal })
      .then(setEndpoints, (err: unknown) => {
        if (!isAbortError(err)) setEndpoints('failed');
      });
    return () => controller.abort();
  }, []);
  const reachable =
    endpoints && endpoints !== 'failed'
      ? endpoints.filter((e) => e.is_active && e.verification_status === 'verified')
      : [];
  const verified = reachable.filter((e) => e.type === 'email');
  const telegram = reachable.some((e) => e.type === 'telegram') ? ' and in Telegram' : '';
  return (
    <div className="quick-rule-channels">
      <span className="field-label">Alerts go to</span>
      <p>
        {endpoints === null
          ? 'In the app; checking your addresses…'
          : endpoints === 'failed'
            ? 'In the app. Your email addresses could not be loaded just now.'
            : verified.length === 0
              ? 'In the app only: no verified email address yet.'
              : `In the app${telegram}, and by email to ${verified.map((e) => e.value).join(', ')}.`}{' '}
        <Link to="/settings">Change in Settings</Link>
      </p>
    </div>
  );
}
