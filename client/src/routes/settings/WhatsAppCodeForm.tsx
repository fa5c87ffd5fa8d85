import {
  CODE_FIELD_LABEL,
  CODE_LENGTH,
  CODE_MESSAGES,
  CODE_PATTERN,
} from '@app/common/endpoints/whatsapp-code';
import { useId, useState, type FormEvent } from 'react';

interface WhatsAppCodeFormProps {
  number: string;
  /** Checks the code; resolves null when the number is verified, else the sentence to show. */
  onVerify: (code: string) => Promise<string | null>;
  /** Sends a new code; resolves null when it went out, else the sentence to show. */
  onResend: () => Promise<string | null>;
}

/**
 * The code field of a pending WhatsApp number (docs/notifications.md#whatsapp): the six digits
 * sent on WhatsApp, Verify, and Resend code; what went wrong is said beside the field.
 */
export function WhatsAppCodeForm({ number, onVerify, onResend }: WhatsAppCodeFormProps) {
  const id = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'verify' | 'resend' | null>(null);

  const verify = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const digits = code.replace(/\s+/g, '');
    if (!CODE_PATTERN.test(digits)) {
      setError(CODE_MESSAGES.format);
      return;
    }
    setBusy('verify');
    setError(null);
    const failure = await onVerify(digits);
    setBusy(null);
    if (failure) setError(failure);
  };

  const resend = async () => {
    setBusy('resend');
    setError(null);
    const failure = await onResend();
    setBusy(null);
    if (failure) setError(failure);
    else setCode('');
  };

  return (
    <form className="code-form" onSubmit={(e) => void verify(e)} noValidate aria-label={`Verify ${number}`}>
      <label className="field-label" htmlFor={`${id}-code`}>
        {CODE_FIELD_LABEL}
      </label>
      <div className="code-form-row">
        <input
          id={`${id}-code`}
          className="input code-input"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={CODE_LENGTH + 2}
          placeholder="123456"
          value={code}
          disabled={busy !== null}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => setCode(e.target.value)}
        />
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy !== null}>
          {busy === 'verify' ? 'Verifying...' : 'Verify'}
        </button>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => void resend()}
          disabled={busy !== null}
          aria-label={`Resend code to ${number}`}
        >
          {busy === 'resend' ? 'Sending...' : 'Resend code'}
        </button>
      </div>
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
