import type { ApiNotificationEndpoint } from '@app/common/endpoints/validation';
import { InfoIcon, SendIcon } from '../../components/icons.tsx';
import { ErrorBox } from '../../components/ErrorBox.tsx';
import { TELEGRAM_TEXTS, type useTelegram } from './useTelegram.ts';

interface TelegramConnectProps {
  telegram: ReturnType<typeof useTelegram>;
  endpoints: ApiNotificationEndpoint[] | null;
  advanced: boolean;
}

/**
 * Connect Telegram in the Notifications card (docs/notifications.md#telegram): "coming soon" on a
 * server without a bot, the tier sentence on Basic, else the button, then the link to open
 * (and to copy) until the chat presses Start.
 */
export function TelegramConnect({ telegram, endpoints, advanced }: TelegramConnectProps) {
  const { status, pending, connecting, error } = telegram;
  if (!status || !endpoints) return null;
  if (!status.configured) {
    return (
      <div className="note-box">
        <InfoIcon />
        <p>{TELEGRAM_TEXTS.comingSoon}</p>
      </div>
    );
  }
  if (!advanced) {
    return (
      <div className="note-box">
        <InfoIcon />
        <p>{TELEGRAM_TEXTS.tier}</p>
      </div>
    );
  }
  const telegramEndpoints = endpoints.filter((e) => e.type === 'telegram');
  const waiting =
    pending && telegramEndpoints.some((e) => e.id === pending.id && e.verification_status === 'pending');
  const connected = telegramEndpoints.some((e) => e.verification_status === 'verified' && e.is_active);
  if (connected && !waiting && !error) return null;
  return (
    <div className="telegram-connect">
      <ErrorBox message={error} onDismiss={telegram.dismissError} />
      {waiting ? (
        <div className="telegram-link" role="group" aria-label="Telegram link">
          <a className="btn btn-primary" href={pending.link} target="_blank" rel="noopener noreferrer">
            <SendIcon /> {TELEGRAM_TEXTS.open}
          </a>
          <p className="text-muted">{TELEGRAM_TEXTS.linkHelp}</p>
          <label className="telegram-link-copy">
            <span>{TELEGRAM_TEXTS.copyLabel}</span>
            <input
              className="input"
              type="text"
              readOnly
              value={pending.link}
              onFocus={(e) => e.currentTarget.select()}
            />
          </label>
        </div>
      ) : connected ? null : (
        <div className="telegram-offer">
          <p>{TELEGRAM_TEXTS.intro}</p>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => void telegram.connect()}
            disabled={connecting}
          >
            <SendIcon /> {connecting ? 'Connecting...' : TELEGRAM_TEXTS.connect}
          </button>
        </div>
      )}
    </div>
  );
}
