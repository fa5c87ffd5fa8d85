import type { ApiBrokerProvider, BrokerId } from '@app/common/api/brokers';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { Banner } from '../../../components/Banner.tsx';
import { ErrorBox } from '../../../components/ErrorBox.tsx';
import { WalletIcon } from '../../../components/icons.tsx';
import { BROKERS_TEXTS, connectedAccounts, type ConnectedAccount } from '../../../brokers/brokerView.ts';
import { BrokerAccountRow } from './BrokerAccountRow.tsx';
import { DhanTokenForm } from './DhanTokenForm.tsx';
import { DisconnectBrokerDialog } from './DisconnectBrokerDialog.tsx';
import { ProviderRow } from './ProviderRow.tsx';
import { useBrokersCard } from './useBrokersCard.ts';

/** The anchor of the card (`/settings#brokers`): the Dashboard and Holdings link here. */
export const BROKERS_ANCHOR = 'brokers';

/**
 * The Brokers card of Settings (docs/holdings.md#connect-a-broker): the connected accounts with
 * Sync now, Reconnect and Disconnect, then each broker with Connect. A failed broker login comes
 * back as `?broker_error=<sentence>`, shown here once and taken out of the address.
 */
export function BrokersCard() {
  const state = useBrokersCard();
  const [params, setParams] = useSearchParams();
  const { hash } = useLocation();
  const [loginError, setLoginError] = useState<string | null>(null);
  const [tokenFormOpen, setTokenFormOpen] = useState(false);
  const [disconnecting, setDisconnecting] = useState<ConnectedAccount | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const brokerError = params.get('broker_error');
  if (brokerError && brokerError !== loginError) setLoginError(brokerError);
  useEffect(() => {
    if (!brokerError) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('broker_error');
        return next;
      },
      { replace: true },
    );
  }, [brokerError, setParams]);

  // Arriving at /settings#brokers: the card is below the fold on a phone.
  const loaded = !state.loading;
  useEffect(() => {
    if (loaded && hash === `#${BROKERS_ANCHOR}`) {
      headingRef.current?.scrollIntoView({ block: 'start' });
      headingRef.current?.focus({ preventScroll: true });
    }
  }, [loaded, hash]);

  const connect = (provider: Pick<ApiBrokerProvider, 'id' | 'connect'>) => {
    if (provider.connect === 'token') setTokenFormOpen(true);
    else void state.login.start(provider.id);
  };
  const connectMethod = (broker: BrokerId) =>
    state.providers?.find((p) => p.id === broker)?.connect ?? (broker === 'dhan' ? 'token' : 'redirect');
  const connectWithToken = async (body: { broker: 'dhan'; client_id: string; access_token: string }) => {
    const failure = await state.connectWithToken(body);
    if (!failure) setTokenFormOpen(false);
    return failure;
  };

  const accounts = state.accounts ? connectedAccounts(state.accounts) : null;
  return (
    <>
      <section
        className="card settings-card brokers-card"
        id={BROKERS_ANCHOR}
        aria-labelledby="brokers-title"
      >
        <h2 id="brokers-title" className="card-title" ref={headingRef} tabIndex={-1}>
          {BROKERS_TEXTS.title}
        </h2>
        <p className="settings-card-intro">{BROKERS_TEXTS.intro}</p>

        <ErrorBox message={loginError} onDismiss={() => setLoginError(null)} />
        <ErrorBox message={state.login.error} onDismiss={state.login.dismissError} />
        {state.notice ? <Banner onDismiss={state.dismissNotice}>{state.notice}</Banner> : null}
        <ErrorBox message={state.loadError}>
          <button type="button" className="btn btn-secondary btn-sm" onClick={state.retry}>
            Try again
          </button>
        </ErrorBox>

        {state.loading ? (
          <p className="broker-loading" role="status" aria-busy="true">
            {BROKERS_TEXTS.loading}
          </p>
        ) : null}

        {accounts?.length === 0 ? (
          <div className="settings-empty broker-empty">
            <span className="settings-empty-icon">
              <WalletIcon />
            </span>
            <p className="settings-empty-title">{BROKERS_TEXTS.empty}</p>
            <p className="text-muted">{BROKERS_TEXTS.emptyHint}</p>
          </div>
        ) : null}
        {accounts?.length ? (
          <ul className="endpoint-list" aria-label="Connected broker accounts">
            {accounts.map((account) => (
              <BrokerAccountRow
                key={account.broker_account_id}
                account={account}
                syncing={state.syncing.has(account.broker_account_id)}
                outcome={state.outcomes[account.broker_account_id]}
                reconnecting={state.login.starting === account.broker_id}
                onSync={() => void state.sync(account)}
                onReconnect={() =>
                  connect({ id: account.broker_id, connect: connectMethod(account.broker_id) })
                }
                onDisconnect={() => setDisconnecting(account)}
              />
            ))}
          </ul>
        ) : null}

        {state.providers?.length ? (
          <>
            <h3 className="broker-providers-title">Connect a broker</h3>
            <ul className="broker-providers" aria-label="Brokers you can connect">
              {state.providers.map((provider) => (
                <ProviderRow
                  key={provider.id}
                  provider={provider}
                  starting={state.login.starting === provider.id}
                  formOpen={provider.connect === 'token' && tokenFormOpen}
                  onConnect={() => connect(provider)}
                />
              ))}
            </ul>
          </>
        ) : null}
        {tokenFormOpen ? (
          <DhanTokenForm onConnect={connectWithToken} onCancel={() => setTokenFormOpen(false)} />
        ) : null}
      </section>
      {/* Outside the card: the card's last-child rules would reach the dialog. */}
      {disconnecting ? (
        <DisconnectBrokerDialog
          account={disconnecting}
          onDisconnect={state.disconnect}
          onClose={() => setDisconnecting(null)}
        />
      ) : null}
    </>
  );
}
