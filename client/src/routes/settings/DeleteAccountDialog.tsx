import { confirmsEmail } from '@app/common/api/account';
import { useId, useState, type FormEvent } from 'react';
import { ErrorBox } from '../../components/ErrorBox.tsx';
import { Modal } from '../../components/Modal.tsx';

export const DELETE_ACCOUNT_TEXTS = {
  title: 'Delete your account?',
  what: 'Your holdings, rules, price alerts, History, alert addresses and settings are deleted for good, and every device is signed out. This cannot be undone.',
  copyFirst: 'Want a copy? Download your data first.',
  label: (email: string) => `Type ${email} to confirm`,
  confirm: 'Delete my account',
  deleting: 'Deleting...',
} as const;

/**
 * Asks before deleting the account: the button stays disabled until the account's email is
 * typed (any case). `onDelete` resolves with an error sentence, or null once deleted.
 */
export function DeleteAccountDialog({
  email,
  onDelete,
  onClose,
}: {
  email: string;
  onDelete: (confirmEmail: string) => Promise<string | null>;
  onClose: () => void;
}) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const matches = confirmsEmail(typed, email);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!matches || busy) return;
    setBusy(true);
    setError(null);
    const failure = await onDelete(typed);
    // Deleted: the app has left this page.
    if (failure) {
      setBusy(false);
      setError(failure);
    }
  };

  return (
    <Modal
      title={DELETE_ACCOUNT_TEXTS.title}
      onClose={onClose}
      busy={busy}
      size="sm"
      actions={
        <button type="submit" form={`${id}-form`} className="btn btn-danger" disabled={!matches || busy}>
          {busy ? DELETE_ACCOUNT_TEXTS.deleting : DELETE_ACCOUNT_TEXTS.confirm}
        </button>
      }
    >
      <form id={`${id}-form`} onSubmit={(e) => void submit(e)} noValidate>
        <p>{DELETE_ACCOUNT_TEXTS.what}</p>
        <p className="delete-account-copy">{DELETE_ACCOUNT_TEXTS.copyFirst}</p>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-email`}>
            {DELETE_ACCOUNT_TEXTS.label(email)}
          </label>
          <input
            id={`${id}-email`}
            className="input"
            type="email"
            autoComplete="off"
            spellCheck={false}
            maxLength={320}
            value={typed}
            disabled={busy}
            data-autofocus
            onChange={(e) => setTyped(e.target.value)}
          />
        </div>
        <ErrorBox message={error} onDismiss={() => setError(null)} />
      </form>
    </Modal>
  );
}
