/**
 * The fields every rule form shares (the row's draft, Edit in Manage Rules, the wizard, the
 * templates): the rule's name, the trigger type, the trigger value (digits and a dot only) and its
 * unit, the one account a rule is for; re-arming where a form offers it. Each is a labelled field
 * whose input id is `${id}-name`, `${id}-type`, `${id}-value`, `${id}-unit` or `${id}-account`.
 */
import {
  ATR_LIMITS,
  MAX_REARM_PERCENT,
  MIN_REARM_PERCENT,
  RULE_KINDS,
  sanitizeTriggerInput,
  TRIGGER_CHOICES,
  VALUE_TYPE_CHOICES,
  VALUE_TYPE_TRAITS,
  valueTypeFits,
  type RearmMode,
  type TriggerType,
  type ValueType,
} from '@app/common/rules/index';
import { AccountOptions } from '../AccountOptions.tsx';
import type { AccountOption } from '../holdingsView.ts';

/** The rule's name (the server keeps up to 100 characters); it takes the focus. */
export function RuleNameField({
  id,
  value,
  onChange,
  placeholder,
  className = 'field',
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  className?: string;
}) {
  return (
    <div className={className}>
      <label className="field-label" htmlFor={`${id}-name`}>
        Rule name
      </label>
      <input
        id={`${id}-name`}
        className="input"
        value={value}
        maxLength={100}
        placeholder={placeholder}
        autoFocus
        data-autofocus
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

/** The one account a rule is for, under the 'One account' choice; null until one is chosen. */
export function TargetAccountField({
  id,
  value,
  accounts,
  onChange,
}: {
  id: string;
  value: string | null;
  accounts: readonly AccountOption[];
  onChange: (accountId: string | null) => void;
}) {
  return (
    <div className="field choice-detail">
      <label className="field-label" htmlFor={`${id}-account`}>
        Account
      </label>
      <select
        id={`${id}-account`}
        className="select"
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || null)}
      >
        <option value="">Choose an account</option>
        <AccountOptions accounts={accounts} />
      </select>
    </div>
  );
}

export function TriggerTypeField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: TriggerType;
  onChange: (value: TriggerType) => void;
}) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={`${id}-type`}>
        Rule
      </label>
      <select
        id={`${id}-type`}
        className="select"
        value={value}
        onChange={(event) => onChange(event.target.value as TriggerType)}
      >
        {TRIGGER_CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function TriggerValueField({
  id,
  value,
  valueType,
  onChange,
  describedBy,
  invalid,
  className = 'field',
}: {
  id: string;
  value: string;
  /** Names the field: 'Trigger price' for a price, 'Trigger value' for a distance. */
  valueType: ValueType;
  /** Called with the input reduced to digits and one dot. */
  onChange: (value: string) => void;
  /** The id of the line that previews or checks the value. */
  describedBy: string;
  invalid?: boolean;
  className?: string;
}) {
  return (
    <div className={className}>
      <label className="field-label" htmlFor={`${id}-value`}>
        {VALUE_TYPE_TRAITS[valueType].fieldLabel}
      </label>
      <input
        id={`${id}-value`}
        className="input"
        inputMode="decimal"
        autoComplete="off"
        value={value}
        aria-describedby={describedBy}
        aria-invalid={invalid}
        onChange={(event) => onChange(sanitizeTriggerInput(event.target.value))}
      />
    </div>
  );
}

/**
 * The unit: the price itself first ('Price (₹)'), then percent and rupees from the price. A
 * trailing stop cannot be set at a price, so that choice is off while the trigger type trails.
 */
export function ValueTypeField({
  id,
  value,
  triggerType,
  onChange,
  spelledOut = false,
  className = 'field',
}: {
  id: string;
  value: ValueType;
  triggerType: TriggerType;
  onChange: (value: ValueType) => void;
  /** 'Price (₹)', 'Percent (%)' where there is room, else 'At ₹', '%'. */
  spelledOut?: boolean;
  className?: string;
}) {
  return (
    <div className={className}>
      <label className="field-label" htmlFor={`${id}-unit`}>
        Unit
      </label>
      <select
        id={`${id}-unit`}
        className="select"
        value={value}
        onChange={(event) => onChange(event.target.value as ValueType)}
      >
        {VALUE_TYPE_CHOICES.map((choice) => (
          <option key={choice} value={choice} disabled={!valueTypeFits(triggerType, choice)}>
            {spelledOut ? VALUE_TYPE_TRAITS[choice].choice : VALUE_TYPE_TRAITS[choice].shortChoice}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * An ATR stop's period n ('ATR over 22 days', 5 to 100; input id `${id}-atr-period`): shown
 * beside the multiple k when the unit is 'ATR (volatility)'.
 */
export function AtrPeriodField({
  id,
  value,
  onChange,
  className = 'field',
}: {
  id: string;
  /** As typed (digits only). */
  value: string;
  onChange: (value: string) => void;
  className?: string;
}) {
  return (
    <div className={className}>
      <label className="field-label" htmlFor={`${id}-atr-period`}>
        ATR over (days)
      </label>
      <input
        id={`${id}-atr-period`}
        className="input"
        inputMode="numeric"
        autoComplete="off"
        value={value}
        aria-describedby={`${id}-atr-help`}
        onChange={(event) => onChange(event.target.value.replace(/\D/g, ''))}
      />
      <span id={`${id}-atr-help`} className="field-hint">
        {ATR_LIMITS.minPeriod}–{ATR_LIMITS.maxPeriod} trading days; 22 is about a month
      </span>
    </div>
  );
}

/**
 * What an ATR stop's level will be, in words, before the server works it out from the stock's
 * history: '3 × ATR(22) below the highest close since you set it.', then `note` (why the form
 * cannot show the rupees: ATR_LEVEL_ON_SAVE, or the form's own problem).
 */
export function AtrLevelNote({
  triggerType,
  multiple,
  period,
  note,
}: {
  triggerType: TriggerType;
  /** As typed. */
  multiple: string;
  /** As typed. */
  period: string;
  note: string;
}) {
  return (
    <span className="text-muted">
      {Number(multiple) || '…'} × ATR({period || '…'}) below{' '}
      {RULE_KINDS[triggerType].trails ? 'the highest close since you set it' : 'the price'}. {note}
    </span>
  );
}

/**
 * "Re-arm after the price recovers": off is `never` (the rule fires once); on, the rule is armed
 * again once the price is back `percent` past its level (input id `${id}-rearm-percent`).
 */
export function RearmField({
  id,
  rearm,
  percent,
  onChange,
}: {
  id: string;
  rearm: RearmMode;
  /** As typed (digits and one dot). */
  percent: string;
  onChange: (rearm: RearmMode, percent: string) => void;
}) {
  const on = rearm === 'after_recovery';
  return (
    <div className="field rule-rearm">
      <label className="check">
        <input
          type="checkbox"
          checked={on}
          onChange={(event) => onChange(event.target.checked ? 'after_recovery' : 'never', percent)}
        />{' '}
        Re-arm after the price recovers
      </label>
      {on ? (
        <label className="rule-rearm-percent" htmlFor={`${id}-rearm-percent`}>
          by{' '}
          <input
            id={`${id}-rearm-percent`}
            className="input rule-rearm-input"
            inputMode="decimal"
            size={4}
            value={percent}
            aria-describedby={`${id}-rearm-help`}
            onChange={(event) => onChange(rearm, sanitizeTriggerInput(event.target.value))}
          />{' '}
          %
        </label>
      ) : null}
      {on ? (
        <span id={`${id}-rearm-help`} className="field-hint">
          Watches again once the price is back {percent || '…'} % past the level ({MIN_REARM_PERCENT}–
          {MAX_REARM_PERCENT} %).
        </span>
      ) : null}
    </div>
  );
}
