import type { ApiPositionRule } from '@app/common/api/rules';
import { formatInr } from '@app/common/format/money';
import {
  ATR_LIMITS,
  MAX_REARM_PERCENT,
  MIN_REARM_PERCENT,
  fittingValueType,
  rearmPrice,
  renamedAfterEdit,
  validateRuleDraft,
  type RearmMode,
  type TriggerType,
  type ValueType,
} from '@app/common/rules/index';
import { useId, useState } from 'react';
import { instrumentKey } from '@app/common/market/tick-batch';
import { BacktestPanel } from '../backtest/BacktestPanel.tsx';
import type { RuleChange } from '../rulesApi.ts';
import { atrProblem, valueAfterUnitChange } from './wizardForm.ts';
import {
  AtrLevelNote,
  AtrPeriodField,
  RearmField,
  RuleNameField,
  TriggerTypeField,
  TriggerValueField,
  ValueTypeField,
} from '../TriggerFields.tsx';

interface RuleEditFormProps {
  rule: ApiPositionRule;
  busy: boolean;
  onSave: (change: RuleChange) => Promise<void>;
  onCancel: () => void;
}

/**
 * Edit (PUT): name, trigger type, value and unit, and re-arming after a recovery. A new trigger
 * re-arms the rule from the latest price.
 */
export function RuleEditForm({ rule, busy, onSave, onCancel }: RuleEditFormProps) {
  const id = useId();
  const [typedName, setTypedName] = useState<string | null>(null);
  const [triggerType, setTriggerType] = useState<TriggerType>(rule.trigger_type);
  const [value, setValue] = useState(String(rule.trigger_value));
  const [valueType, setValueType] = useState<ValueType>(rule.value_type);
  const [atrPeriod, setAtrPeriod] = useState(String(rule.atr_period ?? ATR_LIMITS.defaultPeriod));
  const [rearm, setRearm] = useState<RearmMode>(rule.rearm);
  const [rearmPercent, setRearmPercent] = useState(String(rule.rearm_percent));
  const percent = Number(rearmPercent);
  const percentBad =
    rearm === 'after_recovery' &&
    !(rearmPercent !== '' && percent >= MIN_REARM_PERCENT && percent <= MAX_REARM_PERCENT);
  // Until the user types a name, a generated one follows the trigger (the server renames it too).
  const parsedValue = Number(value);
  const name =
    typedName ??
    renamedAfterEdit(rule.rule_name, rule, {
      trigger_type: triggerType,
      trigger_value: Number.isFinite(parsedValue) && parsedValue > 0 ? parsedValue : rule.trigger_value,
      value_type: valueType,
    });
  const check = validateRuleDraft({
    triggerType,
    valueType,
    triggerValue: value,
    currentPrice: rule.current_price,
  });
  const atrChanged = valueType === 'ATR' && Number(atrPeriod) !== rule.atr_period;
  const triggerChanged =
    triggerType !== rule.trigger_type ||
    Number(value) !== rule.trigger_value ||
    valueType !== rule.value_type ||
    atrChanged;
  const atrBad = atrProblem({ value_type: valueType, trigger_value: value, atr_period: atrPeriod });
  const blocked =
    (triggerChanged && ((!check.ok && check.problem !== 'price') || atrBad !== null)) || percentBad;

  const submit = () => {
    if (blocked) return;
    const change: RuleChange = {};
    if (typedName !== null && name.trim() !== rule.rule_name) change.rule_name = name.trim();
    if (triggerType !== rule.trigger_type) change.trigger_type = triggerType;
    if (Number(value) !== rule.trigger_value) change.trigger_value = Number(value);
    if (valueType !== rule.value_type) change.value_type = valueType;
    if (atrChanged) change.atr_period = Number(atrPeriod);
    if (rearm !== rule.rearm) change.rearm = rearm;
    if (rearm === 'after_recovery' && percent !== rule.rearm_percent) change.rearm_percent = percent;
    if (Object.keys(change).length === 0) onCancel();
    else void onSave(change);
  };

  return (
    <form
      className="rule-edit"
      aria-label={`Edit ${rule.symbol}: ${rule.rule_name}`}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="rule-edit-fields">
        <RuleNameField id={id} className="field rule-edit-name" value={name} onChange={setTypedName} />
        <TriggerTypeField
          id={id}
          value={triggerType}
          onChange={(type) => {
            setTriggerType(type);
            setValueType(fittingValueType(type, valueType));
          }}
        />
        <TriggerValueField
          id={id}
          className="field rule-draft-value"
          value={value}
          valueType={valueType}
          describedBy={`${id}-check`}
          onChange={setValue}
        />
        <ValueTypeField
          id={id}
          className="field rule-draft-unit"
          value={valueType}
          triggerType={triggerType}
          onChange={(unit) => {
            setValue(valueAfterUnitChange(valueType, unit, value));
            setValueType(unit);
          }}
        />
        {valueType === 'ATR' ? (
          <AtrPeriodField
            id={id}
            className="field rule-draft-unit"
            value={atrPeriod}
            onChange={setAtrPeriod}
          />
        ) : null}
      </div>
      <RearmField
        id={id}
        rearm={rearm}
        percent={rearmPercent}
        onChange={(mode, text) => {
          setRearm(mode);
          setRearmPercent(text);
        }}
      />
      <p id={`${id}-check`} className="rule-draft-preview">
        {!triggerChanged ? (
          <span className="text-muted">
            The level stays at {formatInr(rule.computed_trigger_price)}.
            {rule.status === 'TRIGGERED' && rearm === 'after_recovery' && !percentBad
              ? ` It is armed again once the price is back at ${formatInr(rearmPrice(triggerType, rule.computed_trigger_price, percent))}.`
              : null}
          </span>
        ) : atrBad ? (
          <span className="text-loss">{atrBad}</span>
        ) : check.ok ? (
          <>New level about {formatInr(check.triggerPrice)}, set from the latest price when saved.</>
        ) : valueType === 'ATR' && check.problem === 'price' ? (
          <AtrLevelNote triggerType={triggerType} multiple={value} period={atrPeriod} note={check.error} />
        ) : check.problem === 'price' ? (
          <span className="text-muted">The level is set from the latest price when saved.</span>
        ) : (
          <span className="text-loss">{check.error}</span>
        )}
      </p>
      <BacktestPanel
        draft={{
          holding: instrumentKey(rule.exchange, rule.symbol),
          trigger_type: triggerType,
          value_type: valueType,
          trigger_value: value,
          rearm,
          rearm_percent: rearmPercent,
          atr_period: atrPeriod,
        }}
      />
      <div className="rule-actions">
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy || blocked || !name.trim()}>
          {busy ? 'Saving...' : 'Save changes'}
        </button>
        <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
