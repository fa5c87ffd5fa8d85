import type { ApiNewHoldingsProtection } from '@app/common/rules/index';
import type { FormEvent } from 'react';
import { ErrorBox } from '../../../components/ErrorBox.tsx';
import { ManualEntryRow } from './ManualEntryRow.tsx';
import { DUPLICATE_HEADING, OTHER_ERRORS_HEADING } from './manualEntry.ts';
import { useManualEntry, type ManualFeedback } from './useManualEntry.ts';

interface ManualEntryFormProps {
  /** 'example': two rows, the first a pre-filled example (Dashboard); 'single': one empty row (Add New). */
  variant: 'example' | 'single';
  /** After any row was saved; `allSaved` when none failed. */
  onSaved: (added: number, allSaved: boolean, guard: ApiNewHoldingsProtection | null) => void;
  onCancel?: () => void;
  /** Names the form for screen readers. */
  labelledBy: string;
}

/** Inline manual entry of holdings (docs/holdings.md#holdings-and-dashboard-screens). */
export function ManualEntryForm({ variant, onSaved, onCancel, labelledBy }: ManualEntryFormProps) {
  const entry = useManualEntry(variant, onSaved);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void entry.saveAll();
  };
  return (
    <form className="manual-entry" onSubmit={submit} aria-labelledby={labelledBy} noValidate>
      <Feedback feedback={entry.feedback} onDismiss={entry.dismissFeedback} />
      <div className="manual-rows">
        {entry.rows.map((row, index) => (
          <ManualEntryRow
            key={row.key}
            row={row}
            number={index + 1}
            removable={entry.canRemove(row)}
            disabled={entry.saving}
            onChange={(change) => entry.updateRow(row.key, change)}
            onRemove={() => entry.removeRow(row.key)}
          />
        ))}
      </div>
      <div className="manual-actions">
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={entry.addRow}
          disabled={entry.saving}
        >
          + Add Row
        </button>
        <span className="manual-actions-end">
          {onCancel ? (
            <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel} disabled={entry.saving}>
              Cancel
            </button>
          ) : null}
          <button type="submit" className="btn btn-primary btn-sm" disabled={entry.saving}>
            {entry.saving ? 'Saving...' : 'Save All'}
          </button>
        </span>
      </div>
    </form>
  );
}

function Feedback({ feedback, onDismiss }: { feedback: ManualFeedback; onDismiss: () => void }) {
  if (!feedback) return null;
  if (feedback.kind === 'invalid') {
    return (
      <ErrorBox
        message={feedback.errors.length === 1 ? feedback.errors[0] : 'Please fix these rows:'}
        details={feedback.errors.length > 1 ? feedback.errors : undefined}
        onDismiss={onDismiss}
      />
    );
  }
  const { report, added } = feedback;
  return (
    <ErrorBox message={report.title} onDismiss={onDismiss}>
      {added > 0 ? <p>{added === 1 ? '1 holding was added.' : `${added} holdings were added.`}</p> : null}
      <FailureList heading={DUPLICATE_HEADING} items={report.duplicates} />
      <FailureList heading={OTHER_ERRORS_HEADING} items={report.others} />
    </ErrorBox>
  );
}

function FailureList({ heading, items }: { heading: string; items: string[] }) {
  if (items.length === 0) return null;
  return (
    <>
      <p className="error-details-heading">{heading}</p>
      <ul className="error-details">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </>
  );
}
