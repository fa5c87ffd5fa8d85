import { formatInr } from '@app/common/format/money';
import { fittingValueType, previewWords, type TriggerType } from '@app/common/rules/index';
import { useId } from 'react';
import { ErrorBox } from '../../../components/ErrorBox.tsx';
import type { DraftState, DraftStore } from './draftStore.ts';
import { valueAfterUnitChange } from './dialogs/wizardForm.ts';
import { createRuleError, draftPreview, draftRequest, draftSaveCheck } from './ruleDrafts.ts';
import { rulesApi } from './rulesApi.ts';
import {
  AtrLevelNote,
  AtrPeriodField,
  TriggerTypeField,
  TriggerValueField,
  ValueTypeField,
} from './TriggerFields.tsx';

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
  const words = previewWords(triggerType);
  return `${words.lead} ${price}${words.note}`;
}

/**
 * An unsaved rule of one account row (docs/exit-rules.md): trigger type, value (digits and
 * a dot only) and unit, the trigger price computed live from the LTP, Save and Cancel. An ATR
 * stop adds its period and says its level in words: the server sets it from the daily history.
 */
export function DraftEditor({ draft, store, ltp, subject, onSaved }: DraftEditorProps) {
  const id = useId();
  const preview = draftPreview(draft, ltp);
  const toSave = draftSaveCheck(draft, ltp);
  const atr = draft.valueType === 'ATR';
  const key = draft.key;

  const save = async () => {
    const check = draftSaveCheck(draft, ltp);
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
        <TriggerTypeField
          id={id}
          value={draft.triggerType}
          onChange={(triggerType) =>
            store.update(key, {
              triggerType,
              valueType: fittingValueType(triggerType, draft.valueType),
              error: null,
            })
          }
        />
        <TriggerValueField
          id={id}
          className="field rule-draft-value"
          value={draft.triggerValue}
          valueType={draft.valueType}
          describedBy={`${id}-preview`}
          invalid={!toSave.ok && toSave.problem !== 'price'}
          onChange={(triggerValue) => store.update(key, { triggerValue, error: null })}
        />
        <ValueTypeField
          id={id}
          className="field rule-draft-unit"
          value={draft.valueType}
          triggerType={draft.triggerType}
          onChange={(valueType) =>
            store.update(key, {
              valueType,
              triggerValue: valueAfterUnitChange(draft.valueType, valueType, draft.triggerValue),
              error: null,
            })
          }
        />
        {atr ? (
          <AtrPeriodField
            id={id}
            className="field rule-draft-period"
            value={draft.atrPeriod}
            onChange={(atrPeriod) => store.update(key, { atrPeriod, error: null })}
          />
        ) : null}
      </div>
      <p id={`${id}-preview`} className="rule-draft-preview">
        {preview.ok ? (
          <>
            {previewText(draft.triggerType, formatInr(preview.triggerPrice))}
            <span className="text-muted"> · LTP {ltp === null ? '—' : formatInr(ltp)}</span>
          </>
        ) : draft.error ? null : atr && !toSave.ok && toSave.problem === 'atr' ? (
          <span className="text-loss">{toSave.error}</span>
        ) : atr && preview.problem === 'price' ? (
          <>
            <AtrLevelNote
              triggerType={draft.triggerType}
              multiple={draft.triggerValue}
              period={draft.atrPeriod}
              note={preview.error}
            />
            <span className="text-muted"> · LTP {ltp === null ? '—' : formatInr(ltp)}</span>
          </>
        ) : (
          // A draft that could not be saved says why once, in the box below.
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
