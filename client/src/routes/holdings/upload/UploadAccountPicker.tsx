import { MAX_ACCOUNT_NAME } from '@app/common/holdings/schemas';
import type { AccountOption } from '@app/common/holdings/upload-preview';
import type { AccountPick } from './accountPick.ts';
import type { UploadPreview } from './uploadApi.ts';

interface UploadAccountPickerProps {
  preview: UploadPreview;
  pick: AccountPick | null;
  onPick: (pick: AccountPick) => void;
  problem: string | null;
  disabled: boolean;
}

/**
 * Where the file goes: one of the user's import accounts (the file replaces its holdings) or a new
 * account with a name. Without accounts of their own, only the new account's name is asked.
 */
export function UploadAccountPicker({ preview, pick, onPick, problem, disabled }: UploadAccountPickerProps) {
  const options = preview.account_options;
  const newName = pick?.kind === 'new' ? pick.name : '';
  const nameField = (
    <NewAccountName
      value={newName}
      onChange={(name) => onPick({ kind: 'new', name })}
      problem={problem}
      disabled={disabled}
    />
  );
  if (options.length === 0) {
    return (
      <div className="upload-account">
        {nameField}
        <span id="upload-account-hint" className="field-hint">
          A new account: you can upload its next statement into it.
        </span>
      </div>
    );
  }
  return (
    <fieldset className="upload-account">
      <legend className="field-label">Upload to</legend>
      {preview.account_question ? (
        <p className="upload-question" role="note">
          {preview.account_question}
        </p>
      ) : null}
      <div className="upload-choice-list" role="radiogroup" aria-label="Upload to">
        {options.map((option) => (
          <label key={option.id} className="upload-choice">
            <input
              type="radio"
              name="upload-account"
              checked={pick?.kind === 'existing' && pick.id === option.id}
              onChange={() => onPick({ kind: 'existing', id: option.id })}
              disabled={disabled}
            />
            <span>
              <strong>{option.name}</strong>
              <small>{optionHint(option)}</small>
            </span>
          </label>
        ))}
        <label className="upload-choice">
          <input
            type="radio"
            name="upload-account"
            checked={pick?.kind === 'new'}
            onChange={() => onPick({ kind: 'new', name: preview.suggested_name })}
            disabled={disabled}
          />
          <span>
            <strong>A new account</strong>
            <small>Keeps your other accounts as they are.</small>
          </span>
        </label>
      </div>
      {pick?.kind === 'new' ? nameField : null}
    </fieldset>
  );
}

function optionHint(option: AccountOption): string {
  const count = `${option.holdings_count} ${option.holdings_count === 1 ? 'holding' : 'holdings'}`;
  const match = option.client_id_match ? 'same client ID as the file · ' : '';
  return `${match}${count}, replaced by this file`;
}

function NewAccountName({
  value,
  onChange,
  problem,
  disabled,
}: {
  value: string;
  onChange: (name: string) => void;
  problem: string | null;
  disabled: boolean;
}) {
  return (
    <div className="field">
      <label className="field-label" htmlFor="upload-account-name">
        Account name
      </label>
      <input
        id="upload-account-name"
        className="input"
        type="text"
        maxLength={MAX_ACCOUNT_NAME}
        value={value}
        placeholder="Zerodha · AB1234"
        disabled={disabled}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? 'upload-account-problem' : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {problem ? (
        <span id="upload-account-problem" className="field-error" role="alert">
          {problem}
        </span>
      ) : null}
    </div>
  );
}
