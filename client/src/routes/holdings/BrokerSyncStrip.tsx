import { BROKER_NAMES, BROKER_TEXTS } from '@app/common/api/brokers';
import { Link } from 'react-router';
import {
  CONNECTION_STATUS_LABELS,
  accountSyncLine,
  connectedAccounts,
  connectionStatus,
} from '../../brokers/brokerView.ts';
import { useBrokerAccounts } from '../../brokers/useBrokerAccounts.ts';
import { useBrokerLogin } from '../../brokers/useBrokerLogin.ts';
import { ErrorBox } from '../../components/ErrorBox.tsx';

/**
 * The accounts connected over a broker's API, above the holdings: when each last synced
 * ("Zerodha · AB1234 · synced 16:05 IST"), and "Reconnect Zerodha" once its session has expired.
 */
export function BrokerSyncStrip() {
  const { accounts } = useBrokerAccounts();
  const login = useBrokerLogin();
  const connected = accounts ? connectedAccounts(accounts) : [];
  if (connected.length === 0) return null;
  return (
    <section className="broker-sync-strip" aria-label="Connected brokers">
      <ErrorBox message={login.error} onDismiss={login.dismissError} />
      <ul className="broker-sync-list">
        {connected.map((account) => {
          const status = connectionStatus(account);
          const name = BROKER_NAMES[account.broker_id];
          return (
            <li key={account.broker_account_id} className="broker-sync-item" data-status={status}>
              <span className="broker-sync-line">{accountSyncLine(account)}</span>
              {status === 'CONNECTED' ? null : (
                <span className={`badge ${status === 'EXPIRED' ? 'badge-warning' : 'badge-loss'}`}>
                  {CONNECTION_STATUS_LABELS[status]}
                </span>
              )}
              {status !== 'EXPIRED' ? null : account.broker_id === 'dhan' ? (
                // Dhan reconnects with a new token pasted on Settings.
                <Link to="/settings#brokers" className="btn btn-primary btn-sm">
                  {BROKER_TEXTS.reconnect(name)}
                </Link>
              ) : (
                <button
                  type="button"
                  className="btn btn-primary btn-sm"
                  onClick={() => void login.start(account.broker_id)}
                  disabled={login.starting === account.broker_id}
                  aria-describedby={`broker-expired-${account.broker_account_id}`}
                >
                  {BROKER_TEXTS.reconnect(name)}
                </button>
              )}
              {status === 'EXPIRED' ? (
                <span id={`broker-expired-${account.broker_account_id}`} className="broker-sync-note">
                  {BROKER_TEXTS.expired(name)}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
