import { formatInr } from '@app/common/format/money';
import { instrumentKey } from '@app/common/market/tick-batch';
import type { AggregatedHolding } from '@app/common/portfolio/types';
import {
  describeRule,
  fittingValueType,
  RULE_KINDS,
  RULE_MESSAGES,
  TRIGGER_CHOICES,
} from '@app/common/rules/index';
import { useId } from 'react';
import {
  AtrLevelNote,
  AtrPeriodField,
  RearmField,
  RuleNameField,
  TargetAccountField,
  TriggerValueField,
  ValueTypeField,
} from '../TriggerFields.tsx';
import { BacktestPanel } from '../backtest/BacktestPanel.tsx';
import { valueAfterUnitChange, wizardPreview, type WizardForm } from './wizardForm.ts';

type Change = (patch: Partial<WizardForm>) => void;

export function NameStep({
  form,
  rows,
  onChange,
}: {
  form: WizardForm;
  rows: readonly AggregatedHolding[];
  onChange: Change;
}) {
  const id = useId();
  return (
    <fieldset className="wizard-fieldset">
      <legend className="wizard-legend">Name the rule and choose the holding</legend>
      <RuleNameField
        id={id}
        value={form.rule_name}
        placeholder="e.g. Protect my RELIANCE gains"
        onChange={(rule_name) => onChange({ rule_name })}
      />
      <div className="field">
        <label className="field-label" htmlFor={`${id}-holding`}>
          Holding
        </label>
        <select
          id={`${id}-holding`}
          className="select"
          value={form.holding}
          onChange={(event) => onChange({ holding: event.target.value, target_account_id: null })}
        >
          {rows.map((row) => (
            <option
              key={instrumentKey(row.exchange, row.symbol)}
              value={instrumentKey(row.exchange, row.symbol)}
            >
              {row.symbol} ({row.exchange})
            </option>
          ))}
        </select>
      </div>
    </fieldset>
  );
}

export function ScopeStep({
  form,
  row,
  accountNames,
  onChange,
}: {
  form: WizardForm;
  row: AggregatedHolding | undefined;
  accountNames: ReadonlyMap<string, string>;
  onChange: Change;
}) {
  const id = useId();
  const symbol = row?.symbol ?? 'this stock';
  const accounts = (row?.accounts ?? []).map((a) => String(a.broker_account_id));
  return (
    <fieldset className="wizard-fieldset">
      <legend className="wizard-legend">Which of your {symbol} holdings does it guard?</legend>
      <label className="choice">
        <input
          type="radio"
          name={`${id}-scope`}
          checked={form.rule_scope === 'all_holdings'}
          autoFocus={form.rule_scope === 'all_holdings'}
          onChange={() => onChange({ rule_scope: 'all_holdings', target_account_id: null })}
        />
        <span>
          <strong>All holdings</strong>
          <small>Every account that holds {symbol}.</small>
        </span>
      </label>
      <label className="choice">
        <input
          type="radio"
          name={`${id}-scope`}
          checked={form.rule_scope === 'specific_account'}
          autoFocus={form.rule_scope === 'specific_account'}
          onChange={() =>
            onChange({
              rule_scope: 'specific_account',
              target_account_id: form.target_account_id ?? accounts[0] ?? null,
            })
          }
        />
        <span>
          <strong>One account</strong>
          <small>Only the {symbol} held in the account you choose.</small>
        </span>
      </label>
      {form.rule_scope === 'specific_account' ? (
        <TargetAccountField
          id={id}
          value={form.target_account_id}
          accounts={accounts.map((accountId) => ({
            id: accountId,
            name: accountNames.get(accountId) ?? 'Account',
          }))}
          onChange={(target_account_id) => onChange({ target_account_id })}
        />
      ) : null}
    </fieldset>
  );
}

export function TriggerStep({
  form,
  ltp,
  onChange,
}: {
  form: WizardForm;
  ltp: number | null;
  onChange: Change;
}) {
  const id = useId();
  const preview = wizardPreview(form, ltp);
  return (
    <fieldset className="wizard-fieldset">
      <legend className="wizard-legend">When should it alert you?</legend>
      <div className="choice-list">
        {TRIGGER_CHOICES.map((choice) => (
          <label key={choice.value} className="choice">
            <input
              type="radio"
              name={`${id}-trigger`}
              checked={form.trigger_type === choice.value}
              autoFocus={form.trigger_type === choice.value}
              onChange={() =>
                onChange({
                  trigger_type: choice.value,
                  value_type: fittingValueType(choice.value, form.value_type),
                })
              }
            />
            <span>
              <strong>{choice.label}</strong>
              <small>{RULE_KINDS[choice.value].hint}</small>
            </span>
          </label>
        ))}
      </div>
      <div className="wizard-value-row">
        <TriggerValueField
          id={id}
          value={form.trigger_value}
          valueType={form.value_type}
          describedBy={`${id}-preview`}
          onChange={(trigger_value) => onChange({ trigger_value })}
        />
        <ValueTypeField
          id={id}
          spelledOut
          value={form.value_type}
          triggerType={form.trigger_type}
          onChange={(value_type) =>
            onChange({
              value_type,
              trigger_value: valueAfterUnitChange(form.value_type, value_type, form.trigger_value),
            })
          }
        />
        {form.value_type === 'ATR' ? (
          <AtrPeriodField
            id={id}
            value={form.atr_period}
            onChange={(atr_period) => onChange({ atr_period })}
          />
        ) : null}
      </div>
      <RearmField
        id={id}
        rearm={form.rearm}
        percent={form.rearm_percent}
        onChange={(rearm, rearm_percent) => onChange({ rearm, rearm_percent })}
      />
      <p id={`${id}-preview`} className="rule-draft-preview">
        {preview.ok ? (
          <>
            Alert at <strong>{formatInr(preview.triggerPrice)}</strong>
            <span className="text-muted"> · LTP {formatInr(ltp ?? 0)}</span>
          </>
        ) : form.value_type === 'ATR' && preview.problem === 'price' ? (
          <AtrLevelNote
            triggerType={form.trigger_type}
            multiple={form.trigger_value}
            period={form.atr_period}
            note={preview.error}
          />
        ) : preview.problem === 'price' ? (
          <span className="text-muted">
            {RULE_MESSAGES.noPrice} The level is set from the next price when you create the rule.
          </span>
        ) : (
          <span className="text-loss">{preview.error}</span>
        )}
      </p>
      <BacktestPanel draft={form} />
    </fieldset>
  );
}

export function ActionStep({
  form,
  row,
  accountNames,
  ltp,
}: {
  form: WizardForm;
  row: AggregatedHolding | undefined;
  accountNames: ReadonlyMap<string, string>;
  ltp: number | null;
}) {
  const id = useId();
  const preview = wizardPreview(form, ltp);
  const scope =
    form.rule_scope === 'all_holdings'
      ? 'All holdings'
      : (accountNames.get(form.target_account_id ?? '') ?? 'One account');
  return (
    <fieldset className="wizard-fieldset">
      <legend className="wizard-legend">What should happen?</legend>
      <label className="choice">
        <input type="radio" name={`${id}-action`} checked readOnly autoFocus />
        <span>
          <strong>Alert me</strong>
          <small>In the app, and by email to your verified addresses.</small>
        </span>
      </label>
      <label className="choice" data-disabled="true">
        <input type="radio" name={`${id}-action`} disabled aria-describedby={`${id}-sell`} />
        <span>
          <strong>Sell</strong>
          <small id={`${id}-sell`}>{RULE_MESSAGES.sellComingSoon}</small>
        </span>
      </label>
      <dl className="wizard-summary">
        <div>
          <dt>Rule</dt>
          <dd>{form.rule_name.trim() || '—'}</dd>
        </div>
        <div>
          <dt>Holding</dt>
          <dd>{row ? `${row.symbol} (${row.exchange})` : '—'}</dd>
        </div>
        <div>
          <dt>Applies to</dt>
          <dd>{scope}</dd>
        </div>
        <div>
          <dt>Trigger</dt>
          <dd>
            {describeRule({
              trigger_type: form.trigger_type,
              trigger_value: Number(form.trigger_value),
              value_type: form.value_type,
            })}
            {preview.ok ? ` · at ${formatInr(preview.triggerPrice)}` : ''}
          </dd>
        </div>
      </dl>
    </fieldset>
  );
}
