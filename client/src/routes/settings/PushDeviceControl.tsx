import { BellIcon, InfoIcon } from '../../components/icons.tsx';
import { PUSH_TEXTS } from '../../push/browserPush.ts';
import type { usePushDevice } from './usePushDevice.ts';

interface PushDeviceControlProps {
  device: ReturnType<typeof usePushDevice>;
  /** This browser's subscription is one of the listed endpoints. */
  listed: boolean;
  disabled: boolean;
}

/**
 * The "Enable alerts on this device" button of the Notifications card (docs/notifications.md#web-push),
 * or why this browser cannot: not supported, or an iPhone where the app must be on the Home Screen first.
 */
export function PushDeviceControl({ device, listed, disabled }: PushDeviceControlProps) {
  const { support, enabling, message, enable } = device;
  const note =
    support === 'ios-install-first'
      ? PUSH_TEXTS.ios
      : support === 'unsupported'
        ? PUSH_TEXTS.unsupported
        : message;
  return (
    <div className="push-device">
      {support === 'supported' && !listed ? (
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => void enable()}
          disabled={disabled || enabling}
        >
          <BellIcon /> {enabling ? 'Enabling...' : PUSH_TEXTS.enable}
        </button>
      ) : null}
      {note ? (
        <div className="note-box push-device-note" role={message ? 'alert' : undefined}>
          <InfoIcon />
          <p>{note}</p>
        </div>
      ) : null}
    </div>
  );
}
