import { BROKER_NAMES, BROKER_TEXTS } from '@app/common/api/brokers';
import { useId } from 'react';
import {
  CONNECTION_STATUS_LABELS,
  connectionStatus,
  lastSyncedText,
  type ConnectedAccount,
} from '../../../brokers/brokerView.ts';
import type { SyncOutcome } from './useBrokersCard.ts';

const STATUS_BADGES = { CONNECTED: 'badge-gain', EXPIRED: 'badge-warning', ERROR: 'badge-loss' } as const;

/**
 * One connected account: name · client id, status, last sync, and its actions (Sync now,
 * Reconnect when the session has expired, Disconnect).
 */
export function BrokerAccountRow({
  account,
  syncing,
  outcome,
  reconnecting,
  onSync,
  onReconnect,
  onDisconnect,
}: {
  account: ConnectedAccount;
  syncing: boolean;
  outcome: SyncOutcome | undefined;
  reconnecting: boolean;
  onSync: () => void;
  onReconnect: () => void;
  onDisconnect: () => void;
}) {
  const id = useId();
  const name = BROKER_NAMES[account.broker_id];
  const status = connectionStatus(account);
  const expired = status === 'EXPIRED';
  // The sync that found the session ended already says so: one sentence, not two.
  const expiryTold = outcome !== undefined && !outcome.ok;
  return (
    <li className="endpoint-row broker-account" aria-labelledby={`${id}-name`} data-status={status}>
      <div className="endpoint-main">
        <span id={`${id}-name`} className="endpoint-value">
          {account.display_name}
        </span>
        <span className="endpoint-meta">
          <span className={`badge ${STATUS_BADGES[status]}`}>{CONNECTION_STATUS_LABELS[status]}</span>
          <span className="endpoint-note">{lastSyncedText(account.last_synced_at)}</span>
        </span>
        {expired && !expiryTold ? <span className="endpoint-note">{BROKER_TEXTS.expired(name)}</span> : null}
        {outcome ? (
          <span
            className={outcome.ok ? 'broker-sync-result' : 'field-error'}
            role={outcome.ok ? 'status' : 'alert'}
          >
            {outcome.message}
          </span>
        ) : null}
      </div>
      <div className="endpoint-actions broker-actions">
        {expired ? (
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={onReconnect}
            disabled={reconnecting}
          >
            {BROKER_TEXTS.reconnect(name)}
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={onSync}
            disabled={syncing}
            aria-busy={syncing}
          >
            {syncing ? 'Syncing...' : 'Sync now'}
            <span className="visually-hidden"> {account.display_name}</span>
          </button>
        )}
        <button
          type="button"
          className="btn btn-danger-text btn-sm"
          onClick={onDisconnect}
          disabled={syncing}
        >
          Disconnect<span className="visually-hidden"> {account.display_name}</span>
        </button>
      </div>
    </li>
  );
}
