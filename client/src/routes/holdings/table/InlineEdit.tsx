import { validateInlineEdit, type InlineEditField } from '@app/common/holdings/manual';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { api, errorMessage } from '../../../api/client.ts';
import { PencilIcon } from '../../../components/icons.tsx';

interface InlineEditProps {
  holdingId: string;
  field: InlineEditField;
  value: number;
  /** The value as shown when not editing. */
  display: string;
  /** 'quantity of RELIANCE', for the button's and input's names. */
  label: string;
  /** Re-fetches the holdings; the edit stays open (saving) until it resolves. */
  onSaved: () => Promise<void>;
}

type EditState =
  { mode: 'view' } | { mode: 'edit'; text: string; error?: string } | { mode: 'saving'; text: string };

/**
 * Click-to-edit quantity or buy price (docs/holdings.md#holdings-and-dashboard-screens): Enter saves with
 * `PUT /api/holdings/:id`, and so does leaving the field (phone keypads often have no Enter);
 * Escape cancels, an empty or unchanged value cancels, anything not above 0 is refused with the
 * documented message (the field stays open with it).
 */
export function InlineEdit({ holdingId, field, value, display, label, onSaved }: InlineEditProps) {
  const [state, setState] = useState<EditState>({ mode: 'view' });
  const hintId = useId();
  // Set by Escape, Enter or a blur's own save: the blur that follows (the field is removed or
  // disabled) must not save, or save twice.
  const settled = useRef(false);

  if (state.mode === 'view') {
    return (
      <button
        type="button"
        className="inline-edit-trigger"
        onClick={() => {
          settled.current = false;
          setState({ mode: 'edit', text: String(value) });
        }}
        aria-label={`Edit ${label}: ${display}`}
        title="Click to edit"
      >
        {display}
        <PencilIcon />
      </button>
    );
  }

  const save = async (text: string) => {
    settled.current = true;
    const outcome = validateInlineEdit(field, text, value);
    if (outcome.action === 'cancel') return setState({ mode: 'view' });
    if (outcome.action === 'error') {
      settled.current = false;
      return setState({ mode: 'edit', text, error: outcome.message });
    }
    setState({ mode: 'saving', text });
    try {
      await api.put(`/holdings/${holdingId}`, { [field]: outcome.value });
      await onSaved();
      setState({ mode: 'view' });
    } catch (err) {
      settled.current = false;
      setState({
        mode: 'edit',
        text,
        error: errorMessage(err, 'Could not save the change. Please try again.'),
      });
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void save(event.currentTarget.value);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      settled.current = true;
      setState({ mode: 'view' });
    }
  };

  const saving = state.mode === 'saving';
  const error = state.mode === 'edit' ? state.error : undefined;
  return (
    <span className="inline-edit">
      <input
        className="input inline-edit-input"
        type="number"
        inputMode="decimal"
        min={0}
        step={field === 'quantity' ? 1 : 0.01}
        aria-label={`New ${label}`}
        aria-describedby={hintId}
        aria-invalid={error ? true : undefined}
        // The edit starts from a click on this very cell, so moving focus here is expected.
        autoFocus
        value={state.text}
        disabled={saving}
        onChange={(event) => setState({ mode: 'edit', text: event.target.value })}
        onKeyDown={onKeyDown}
        onBlur={(event) => {
          if (!saving && !settled.current) void save(event.currentTarget.value);
        }}
      />
      <span
        id={hintId}
        className={error ? 'inline-edit-error' : 'visually-hidden'}
        role={error ? 'alert' : undefined}
      >
        {saving ? 'Saving...' : (error ?? 'Press Enter or leave the field to save; Escape cancels.')}
      </span>
      {saving ? (
        <span className="inline-edit-status" aria-hidden="true">
          Saving...
        </span>
      ) : null}
    </span>
  );
}
