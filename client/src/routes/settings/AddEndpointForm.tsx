import { PHONE_EXAMPLE, validateEndpoint, type EndpointType } from '@app/common/endpoints/validation';
import { useRef, useState, type FormEvent } from 'react';
import { ErrorBox } from '../../components/ErrorBox.tsx';

const FIELD = {
  email: { label: 'Email Address', placeholder: 'e.g. you@example.com', type: 'email', inputMode: 'email' },
  whatsapp: { label: 'Phone Number', placeholder: `e.g. ${PHONE_EXAMPLE}`, type: 'tel', inputMode: 'tel' },
} as const;

interface AddEndpointFormProps {
  /** Adds the endpoint; resolves null on success (the parent then closes the form) or a message. */
  onAdd: (type: EndpointType, value: string) => Promise<string | null>;
  onCancel: () => void;
}

/**
 * The inline Add form of Settings (docs/notifications.md): Email or WhatsApp, one value checked
 * with the server's own rules before it is sent. A failed add keeps what the user typed.
 */
export function AddEndpointForm({ onAdd, onCancel }: AddEndpointFormProps) {
  const [type, setType] = useState<EndpointType>('email');
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const field = FIELD[type];

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const invalid = validateEndpoint(type, value);
    setFieldError(invalid);
    setSubmitError(null);
    if (invalid) {
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    const failure = await onAdd(type, value.trim());
    if (failure) {
      setBusy(false);
      setSubmitError(failure);
    }
  };

  return (
    <form
      className="endpoint-form"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label="Add notification endpoint"
    >
      <div className="endpoint-form-fields">
        <div className="field">
          <label className="field-label" htmlFor="endpoint-type">
            Type
          </label>
          <select
            id="endpoint-type"
            className="select"
            value={type}
            disabled={busy}
            onChange={(e) => {
              setType(e.target.value as EndpointType);
              setFieldError(null);
              setSubmitError(null);
            }}
          >
            <option value="email">Email</option>
            <option value="whatsapp">WhatsApp</option>
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor="endpoint-value">
            {field.label}
          </label>
          <input
            ref={inputRef}
            id="endpoint-value"
            className="input"
            type={field.type}
            inputMode={field.inputMode}
            autoComplete={type === 'email' ? 'email' : 'tel'}
            placeholder={field.placeholder}
            maxLength={254}
            value={value}
            disabled={busy}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? 'endpoint-value-error' : undefined}
            onChange={(e) => setValue(e.target.value)}
            autoFocus
          />
          {fieldError ? (
            <p id="endpoint-value-error" className="field-error" role="alert">
              {fieldError}
            </p>
          ) : null}
        </div>
      </div>
      <ErrorBox message={submitError} onDismiss={() => setSubmitError(null)} />
      <div className="endpoint-form-actions">
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
          {busy ? 'Adding...' : 'Add'}
        </button>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
