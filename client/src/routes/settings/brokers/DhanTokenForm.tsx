import { connectBrokerBody } from '@app/common/api/brokers';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';

export const DHAN_FORM_TEXTS = {
  clientId: 'Dhan client ID',
  accessToken: 'Access token',
  where:
    'Generate an access token on web.dhan.co → My Profile → Access DhanHQ APIs, then paste it here with your client ID.',
  submit: 'Connect Dhan',
  submitting: 'Connecting...',
  cancel: 'Cancel',
} as const;

type Field = 'client_id' | 'access_token';

/**
 * Dhan's connect form: client ID and an access token generated on Dhan's site, checked with the
 * server's own schema before it is sent. What the server refuses is shown beside the token; the
 * typed input stays.
 */
export function DhanTokenForm({
  onConnect,
  onCancel,
}: {
  onConnect: (body: { broker: 'dhan'; client_id: string; access_token: string }) => Promise<string | null>;
  onCancel: () => void;
}) {
  const id = useId();
  const [clientId, setClientId] = useState('');
  const [token, setToken] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  const firstField = useRef<HTMLInputElement>(null);
  useEffect(() => firstField.current?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const parsed = connectBrokerBody.safeParse({ broker: 'dhan', client_id: clientId, access_token: token });
    if (!parsed.success || !('client_id' in parsed.data)) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error?.issues ?? []) {
        const field = issue.path[0];
        if ((field === 'client_id' || field === 'access_token') && !found[field])
          found[field] = issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setBusy(true);
    const failure = await onConnect(parsed.data);
    setBusy(false);
    if (failure) setErrors({ access_token: failure });
  };

  const fieldProps = (field: Field) => ({
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${id}-${field}-error` : undefined,
    disabled: busy,
    autoComplete: 'off',
    spellCheck: false,
    className: 'input',
  });

  return (
    <form
      className="endpoint-form broker-token-form"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label="Connect Dhan"
    >
      <p className="setting-help broker-token-where">{DHAN_FORM_TEXTS.where}</p>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-client_id`}>
          {DHAN_FORM_TEXTS.clientId}
        </label>
        <input
          id={`${id}-client_id`}
          inputMode="numeric"
          value={clientId}
          onChange={(e) => setClientId(e.target.value)}
          ref={firstField}
          {...fieldProps('client_id')}
        />
        <FieldError id={`${id}-client_id-error`} message={errors.client_id} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-access_token`}>
          {DHAN_FORM_TEXTS.accessToken}
        </label>
        <input
          id={`${id}-access_token`}
          type="password"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          {...fieldProps('access_token')}
        />
        <FieldError id={`${id}-access_token-error`} message={errors.access_token} />
      </div>
      <div className="endpoint-form-actions">
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
          {busy ? DHAN_FORM_TEXTS.submitting : DHAN_FORM_TEXTS.submit}
        </button>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onCancel} disabled={busy}>
          {DHAN_FORM_TEXTS.cancel}
        </button>
      </div>
    </form>
  );
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} className="field-error" role="alert">
      {message}
    </p>
  ) : null;
}
