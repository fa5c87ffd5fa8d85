import { formatInr } from '@app/common/format/money';
import { sanitizeTriggerInput, type TriggerType, type ValueType } from '@app/common/rules/index';
import { useId } from 'react';
import { ErrorBox } from '../../../components/ErrorBox.tsx';
import type { DraftState, DraftStore } from './draftStore.ts';
import { createRuleError, draftPreview, draftRequest } from './ruleDrafts.ts';
import { rulesApi } from './rulesApi.ts';
import { TRIGGER_CHOICES } from './ruleView.ts';

interface DraftEditorProps {
  draft: DraftState;
  store: DraftStore;
  /** The holding's live price: the preview follows it. */
  ltp: number | null;
  /** 'RELIANCE in Zerodha', for the labels. */
  subject: string;
  onSaved: () => Promise<void>;
}

/** What the draft would do, in words, at the live price. */
function previewText(triggerType: TriggerType, price: string): string {
  if (triggerType === 'TAKE_PROFIT') return `Alert when the price rises to ${price}`;
  if (triggerType === 'FIXED_STOP_LOSS') return `Alert when the price falls to ${price}`;
  return `Alert when the price falls to ${price}; this level rises as the price rises`;
}

/**
 * An unsaved rule of one account row (spec §4 Rule-draft flow): trigger type, value (digits and
 * a dot only) and unit, the trigger price computed live from the LTP, Save and Cancel.
 */
export function DraftEditor({ draft, store, ltp, subject, onSaved }: DraftEditorProps) {
  const id = useId();
  const preview = draftPreview(draft, ltp);
  const key = draft.key;

  const save = async () => {
    const check = draftPreview(draft, ltp);
    if (!check.ok) {
      store.update(key, { error: check.error });
      return;
    }
    store.update(key, { saving: true, error: null });
    try {
      await rulesApi.create(draftRequest(draft, check.triggerValue, check.triggerPrice));
      store.remove([key]);
      await onSaved();
    } catch (err) {
      store.update(key, { saving: false, error: createRuleError(err) });
    }
  };

  return (
    <form
      className="rule-draft"
      aria-label={`New rule for ${subject}`}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <div className="rule-draft-fields">
        <div className="field">
          <label className="field-label" htmlFor={`${id}-type`}>
            Rule
          </label>
          <select
            id={`${id}-type`}
            className="select"
            value={draft.triggerType}
            onChange={(event) =>
              store.update(key, { triggerType: event.target.value as TriggerType, error: null })
            }
          >
            {TRIGGER_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field rule-draft-value">
          <label className="field-label" htmlFor={`${id}-value`}>
            Trigger value
          </label>
          <input
            id={`${id}-value`}
            className="input"
            inputMode="decimal"
            autoComplete="off"
            value={draft.triggerValue}
            aria-describedby={`${id}-preview`}
            aria-invalid={!preview.ok && preview.problem !== 'price'}
            onChange={(event) =>
              store.update(key, { triggerValue: sanitizeTriggerInput(event.target.value), error: null })
            }
          />
        </div>
        <div className="field rule-draft-unit">
          <label className="field-label" htmlFor={`${id}-unit`}>
            Unit
          </label>
          <select
            id={`${id}-unit`}
            className="select"
            value={draft.valueType}
            onChange={(event) =>
              store.update(key, { valueType: event.target.value as ValueType, error: null })
            }
          >
            <option value="PERCENT">%</option>
            <option value="ABSOLUTE">₹</option>
          </select>
        </div>
      </div>
      <p id={`${id}-preview`} className="rule-draft-preview">
        {preview.ok ? (
          <>
            {previewText(draft.triggerType, formatInr(preview.triggerPrice))}
            <span className="text-muted"> · LTP {ltp === null ? '—' : formatInr(ltp)}</span>
          </>
        ) : (
          <span className="text-loss">{preview.error}</span>
        )}
      </p>
      <ErrorBox message={draft.error} onDismiss={() => store.update(key, { error: null })} />
      <div className="rule-draft-actions">
        <button type="submit" className="btn btn-primary btn-sm" disabled={draft.saving}>
          {draft.saving ? 'Saving...' : 'Save'}
        </button>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={draft.saving}
          onClick={() => store.remove([key])}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
