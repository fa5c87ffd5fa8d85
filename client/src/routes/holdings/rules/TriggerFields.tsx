/**
 * The fields every rule form shares (the row's draft, Edit in Manage Rules, the wizard): the
 * trigger type, the trigger value (digits and a dot only) and its unit. Each is a labelled field
 * whose input id is `${id}-type`, `${id}-value` or `${id}-unit`.
 */
import { sanitizeTriggerInput, type TriggerType, type ValueType } from '@app/common/rules/index';
import { TRIGGER_CHOICES } from './ruleView.ts';

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
  onChange,
  describedBy,
  invalid,
  className = 'field',
}: {
  id: string;
  value: string;
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
        Trigger value
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

export function ValueTypeField({
  id,
  value,
  onChange,
  spelledOut = false,
  className = 'field',
}: {
  id: string;
  value: ValueType;
  onChange: (value: ValueType) => void;
  /** 'Percent (%)' and 'Rupees (₹)' where there is room, else '%' and '₹'. */
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
        <option value="PERCENT">{spelledOut ? 'Percent (%)' : '%'}</option>
        <option value="ABSOLUTE">{spelledOut ? 'Rupees (₹)' : '₹'}</option>
      </select>
    </div>
  );
}
