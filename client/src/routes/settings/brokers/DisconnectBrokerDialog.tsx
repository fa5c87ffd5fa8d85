import { BROKER_NAMES } from '@app/common/api/brokers';
import { useState } from 'react';
import { ErrorBox } from '../../../components/ErrorBox.tsx';
import { Modal } from '../../../components/Modal.tsx';
import {
  BROKERS_TEXTS,
  disconnectConsequence,
  disconnectTitle,
  type ConnectedAccount,
} from '../../../brokers/brokerView.ts';

/**
 * Asks before disconnecting an account, saying what goes (its holdings and their rules) and
 * what stays (everything at the broker). `onDisconnect` resolves with an error sentence, or null.
 */
export function DisconnectBrokerDialog({
  account,
  onDisconnect,
  onClose,
}: {
  account: ConnectedAccount;
  onDisconnect: (account: ConnectedAccount) => Promise<string | null>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = BROKER_NAMES[account.broker_id];

  const confirm = async () => {
    setBusy(true);
    setError(null);
    const failure = await onDisconnect(account);
    setBusy(false);
    if (failure) setError(failure);
    else onClose();
  };

  return (
    <Modal
      title={disconnectTitle(account.broker_id)}
      onClose={onClose}
      busy={busy}
      size="sm"
      actions={
        <button type="button" className="btn btn-danger" onClick={() => void confirm()} disabled={busy}>
          {busy ? BROKERS_TEXTS.disconnecting : `Disconnect ${name}`}
        </button>
      }
    >
      <p className="broker-disconnect-account">{account.display_name}</p>
      <p>{disconnectConsequence(account.broker_id, account.holdings_count)}</p>
      <ErrorBox message={error} onDismiss={() => setError(null)} />
    </Modal>
  );
}
