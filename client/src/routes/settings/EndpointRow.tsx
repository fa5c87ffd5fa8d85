import type { ApiNotificationEndpoint } from '@app/common/endpoints/validation';
import { useEffect, useRef, useState } from 'react';
import { MailIcon } from '../../components/icons.tsx';
import { ChatIcon, TrashIcon } from '../../components/icons.tsx';

export const WHATSAPP_NOTE = 'Whatsapp support coming soon';

/** A long address wraps after its '@' on a narrow screen rather than mid-word. */
function withBreakAfterAt(value: string) {
  const at = value.indexOf('@');
  if (at < 0) return value;
  return (
    <>
      {value.slice(0, at + 1)}
      <wbr />
      {value.slice(at + 1)}
    </>
  );
}

interface EndpointRowProps {
  endpoint: ApiNotificationEndpoint;
  resending: boolean;
  onResend: (id: string) => void;
  /** Deletes the endpoint; resolves false when that failed (the row stays). */
  onRemove: (id: string) => Promise<boolean>;
}

/**
 * One notification endpoint (spec §2 Settings): type and value; a pending email is a yellow
 * row with an Unverified badge and Resend Email; a read-only Active box; a delete button
 * that asks first, absent for the account's own email.
 */
export function EndpointRow({ endpoint, resending, onResend, onRemove }: EndpointRowProps) {
  const { id, type, value, is_active, is_account_email } = endpoint;
  const isEmail = type === 'email';
  const pending = isEmail && endpoint.verification_status === 'pending';
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);

  // Closing the confirmation returns focus to the delete button it came from.
  useEffect(() => {
    if (wasConfirming.current && !confirming) deleteRef.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);

  const confirmDelete = async () => {
    setDeleting(true);
    const removed = await onRemove(id);
    if (!removed) {
      setDeleting(false);
      setConfirming(false);
    }
  };

  return (
    <li className={pending ? 'endpoint-row endpoint-row-pending' : 'endpoint-row'}>
      <span className="endpoint-icon">{isEmail ? <MailIcon /> : <ChatIcon />}</span>
      <div className="endpoint-main">
        <span className="endpoint-type">{isEmail ? 'Email' : 'WhatsApp'}</span>
        <span className="endpoint-value">{withBreakAfterAt(value)}</span>
        <div className="endpoint-meta">
          {pending ? <span className="badge badge-warning">Unverified</span> : null}
          {isEmail && !pending ? <span className="badge badge-gain">Verified</span> : null}
          {is_account_email ? <span className="badge badge-primary">Account email</span> : null}
          {pending ? (
            <button
              type="button"
              className="link-button"
              onClick={() => onResend(id)}
              disabled={resending}
              aria-label={`Resend Email to ${value}`}
            >
              {resending ? 'Sending...' : 'Resend Email'}
            </button>
          ) : null}
          {isEmail ? null : <span className="endpoint-note">{WHATSAPP_NOTE}</span>}
        </div>
      </div>
      <div className="endpoint-actions">
        <label className="endpoint-active">
          <input type="checkbox" checked={is_active} disabled readOnly />
          Active
        </label>
        {is_account_email ? null : confirming ? (
          <div className="endpoint-confirm" role="group" aria-label={`Delete ${value}?`}>
            <span className="endpoint-confirm-text">Delete?</span>
            <button
              type="button"
              className="btn btn-danger btn-sm"
              onClick={() => void confirmDelete()}
              disabled={deleting}
              autoFocus
            >
              {deleting ? 'Deleting...' : 'Delete'}
            </button>
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => setConfirming(false)}
              disabled={deleting}
            >
              Keep
            </button>
          </div>
        ) : (
          <button
            ref={deleteRef}
            type="button"
            className="icon-button endpoint-delete"
            aria-label={`Delete ${value}`}
            title="Delete endpoint"
            onClick={() => setConfirming(true)}
          >
            <TrashIcon />
          </button>
        )}
      </div>
    </li>
  );
}
