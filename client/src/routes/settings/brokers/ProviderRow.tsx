import type { ApiBrokerProvider } from '@app/common/api/brokers';
import { BROKERS_TEXTS } from '../../../brokers/brokerView.ts';

/**
 * One broker the server can connect to: its Connect button, or plain words when the server has
 * no keys for it (never a button that cannot work).
 */
export function ProviderRow({
  provider,
  starting,
  formOpen,
  onConnect,
}: {
  provider: ApiBrokerProvider;
  /** The broker's login page is being opened. */
  starting: boolean;
  /** The broker's token form is already open below. */
  formOpen: boolean;
  onConnect: () => void;
}) {
  return (
    <li className="broker-provider" aria-label={provider.name}>
      <span className="broker-provider-name">{provider.name}</span>
      {provider.configured ? (
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={onConnect}
          disabled={starting || formOpen}
          aria-busy={starting}
        >
          {starting ? 'Opening...' : 'Connect'}
          <span className="visually-hidden"> {provider.name}</span>
        </button>
      ) : (
        <span className="endpoint-note">{BROKERS_TEXTS.notAvailable}</span>
      )}
    </li>
  );
}
