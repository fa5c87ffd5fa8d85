import type { ApiNotificationEndpoint } from '@app/common/endpoints/validation';
import { useEffect, useRef, useState } from 'react';
import { BellIcon, MailIcon } from '../../components/icons.tsx';
import { ChatIcon, SendIcon, TrashIcon } from '../../components/icons.tsx';
import type { NoticeKind } from '@app/common/notifications/channels';
import { NoticeChoices } from './NoticeChoices.tsx';
import { SendTestButton } from './SendTestButton.tsx';
import type { NoticesFailure } from './useNotificationEndpoints.ts';
import { TELEGRAM_TEXTS } from './useTelegram.ts';
import { WhatsAppCodeForm } from './WhatsAppCodeForm.tsx';

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

/** What each type of endpoint is called in the list. */
const TYPE_NAMES: Record<ApiNotificationEndpoint['type'], string> = {
  email: 'Email',
  whatsapp: 'WhatsApp',
  webpush: 'Alerts on a device',
  telegram: 'Telegram',
};

interface EndpointRowProps {
  endpoint: ApiNotificationEndpoint;
  /** The push subscription of this very browser. */
  thisDevice?: boolean;
  resending: boolean;
  onResend: (id: string) => void;
  /** WhatsApp is configured on the server: numbers are verified by a code (else the coming-soon note). */
  whatsappConfigured: boolean;
  /** Checks a WhatsApp code; resolves null when verified, else the sentence to show. */
  onVerifyCode: (id: string, code: string) => Promise<string | null>;
  /** Sends a WhatsApp number a new code; resolves null when sent, else the sentence to show. */
  onResendCode: (id: string) => Promise<string | null>;
  /** Deletes the endpoint; resolves false when that failed (the row stays). */
  onRemove: (endpoint: ApiNotificationEndpoint) => Promise<boolean>;
  /** The last save of what it receives, when it failed. */
  noticesFailure?: NoticesFailure | undefined;
  onNotices: (endpoint: ApiNotificationEndpoint, notices: NoticeKind[]) => void;
  /** Connect Telegram again (a Telegram endpoint the channel turned off). */
  onReconnect?: () => void;
  /** Sends the endpoint a test; resolves null when it is on its way, else the sentence to show. */
  onSendTest: (id: string) => Promise<string | null>;
}

/** A Telegram chat as the row names it: waiting for Start, or connected and to whom. */
function telegramValue(endpoint: ApiNotificationEndpoint): string {
  if (endpoint.verification_status === 'pending') return TELEGRAM_TEXTS.waiting;
  const who = endpoint.label ?? endpoint.value;
  return endpoint.is_active ? `Connected · ${who}` : who;
}

/**
 * One notification endpoint (docs/notifications.md): type and value; a pending email is a yellow
 * row with an Unverified badge and Resend Email; a pending WhatsApp number (WhatsApp configured)
 * is a yellow row with the code field; a read-only Active box (not ticked while unverified: it
 * receives nothing yet); "Send a test" on an active, verified one; a delete button that asks
 * first, absent for the account's own email; the ticks of what it receives.
 */
export function EndpointRow(props: EndpointRowProps) {
  const {
    endpoint,
    thisDevice = false,
    resending,
    onResend,
    onRemove,
    onReconnect,
    whatsappConfigured,
    noticesFailure,
    onNotices,
  } = props;
  const { id, type, is_active, is_account_email } = endpoint;
  const isEmail = type === 'email';
  const isTelegram = type === 'telegram';
  const isPush = type === 'webpush';
  // Without WhatsApp configured a number is not verified by anything: shown as before, with the note.
  const isCodeVerified = type === 'whatsapp' && whatsappConfigured;
  // A device is shown by its label and a chat by who it is: their values mean nothing to a person.
  const value = isTelegram
    ? telegramValue(endpoint)
    : isPush
      ? (endpoint.label ?? 'A browser')
      : endpoint.value;
  /** Who a delete or resend names (a Telegram chat waiting for Start has no value yet). */
  const name = isTelegram ? `Telegram ${endpoint.label ?? ''}`.trim() : value;
  const pending = (isEmail || isTelegram || isCodeVerified) && endpoint.verification_status === 'pending';
  const turnedOff = isTelegram && !pending && !is_active;
  // Only an address someone proved is theirs, that receives anything, on a channel this server sends.
  const testable =
    is_active && endpoint.verification_status === 'verified' && (type !== 'whatsapp' || whatsappConfigured);
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
    const removed = await onRemove(endpoint);
    if (!removed) {
      setDeleting(false);
      setConfirming(false);
    }
  };

  return (
    <li className={pending ? 'endpoint-row endpoint-row-pending' : 'endpoint-row'}>
      <span className="endpoint-icon">
        {isEmail ? <MailIcon /> : isTelegram ? <SendIcon /> : isPush ? <BellIcon /> : <ChatIcon />}
      </span>
      <div className="endpoint-main">
        <span className="endpoint-type">{TYPE_NAMES[type]}</span>
        <span className="endpoint-value">{isTelegram || isPush ? value : withBreakAfterAt(value)}</span>
        <div className="endpoint-meta">
          {pending && !isTelegram ? <span className="badge badge-warning">Unverified</span> : null}
          {turnedOff ? (
            <>
              <span className="endpoint-reason">{endpoint.inactive_reason ?? 'Turned off'}</span>
              {onReconnect ? (
                <button type="button" className="link-button" onClick={onReconnect}>
                  {TELEGRAM_TEXTS.reconnect}
                </button>
              ) : null}
            </>
          ) : null}
          {(isEmail || isCodeVerified) && !pending ? (
            <span className="badge badge-gain">Verified</span>
          ) : null}
          {is_account_email ? <span className="badge badge-primary">Account email</span> : null}
          {thisDevice ? <span className="badge badge-primary">This device</span> : null}
          {pending && isEmail ? (
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
          {testable ? (
            <SendTestButton
              endpoint={endpoint}
              thisDevice={thisDevice}
              name={name}
              onSend={props.onSendTest}
            />
          ) : null}
          {type === 'whatsapp' && !whatsappConfigured ? (
            <span className="endpoint-note">{WHATSAPP_NOTE}</span>
          ) : null}
        </div>
        {pending && isCodeVerified ? (
          <WhatsAppCodeForm
            number={value}
            onVerify={(code) => props.onVerifyCode(id, code)}
            onResend={() => props.onResendCode(id)}
          />
        ) : null}
        <NoticeChoices endpoint={endpoint} failure={noticesFailure} onChange={onNotices} />
      </div>
      <div className="endpoint-actions">
        <label
          className="endpoint-active"
          title={
            pending
              ? isTelegram
                ? 'Active once you press Start in Telegram'
                : `Active once the ${isEmail ? 'email' : 'number'} is verified`
              : undefined
          }
        >
          {/* An unverified address receives nothing: not ticked until its link is followed (or code typed). */}
          <input type="checkbox" checked={is_active && !pending} disabled readOnly />
          Active
        </label>
        {is_account_email ? null : confirming ? (
          <div className="endpoint-confirm" role="group" aria-label={`Delete ${name}?`}>
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
            aria-label={`Delete ${name}`}
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
