import type { ApiBrokerProvider, ApiBrokerSync, ConnectBrokerBody } from '@app/common/api/brokers';
import { useCallback, useEffect, useState } from 'react';
import { api, errorMessage, isAbortError } from '../../../api/client.ts';
import { BROKERS_TEXTS, syncResultText, type ConnectedAccount } from '../../../brokers/brokerView.ts';
import { useBrokerAccounts } from '../../../brokers/useBrokerAccounts.ts';
import { useBrokerLogin } from '../../../brokers/useBrokerLogin.ts';

/** What the last Sync now of one account said: what changed, or why it failed. */
export interface SyncOutcome {
  ok: boolean;
  message: string;
}

/**
 * The Brokers card's state (GET /api/brokers/providers and GET /api/brokers) and its actions:
 * connect (the broker's login, or Dhan's pasted token), sync now, disconnect.
 */
export function useBrokersCard() {
  const [providers, setProviders] = useState<ApiBrokerProvider[] | null>(null);
  const [providersError, setProvidersError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const { accounts, error: accountsError, reload } = useBrokerAccounts();
  const login = useBrokerLogin();
  const [syncing, setSyncing] = useState<ReadonlySet<string>>(new Set());
  const [outcomes, setOutcomes] = useState<Readonly<Record<string, SyncOutcome>>>({});
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    api.get<ApiBrokerProvider[]>('/brokers/providers', { signal: controller.signal }).then(
      (list) => {
        setProviders(list);
        setProvidersError(null);
      },
      (err: unknown) => {
        if (!isAbortError(err)) setProvidersError(errorMessage(err, BROKERS_TEXTS.load));
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const retry = useCallback(() => {
    setAttempt((n) => n + 1);
    reload();
  }, [reload]);

  const sync = useCallback(
    async (account: ConnectedAccount) => {
      const id = account.broker_account_id;
      setSyncing((prev) => new Set(prev).add(id));
      try {
        const result = await api.post<ApiBrokerSync>(`/brokers/${encodeURIComponent(id)}/sync`);
        setOutcomes((prev) => ({
          ...prev,
          [id]: { ok: true, message: syncResultText(account.broker_id, result) },
        }));
      } catch (err) {
        setOutcomes((prev) => ({
          ...prev,
          [id]: { ok: false, message: errorMessage(err, BROKERS_TEXTS.sync) },
        }));
      } finally {
        setSyncing((prev) => {
          const next = new Set(prev);
          next.delete(id);
          return next;
        });
        // The status (an expired session) and the last sync time change on the server.
        reload();
      }
    },
    [reload],
  );

  /** Disconnects; resolves with an error sentence, or null once the account is gone. */
  const disconnect = useCallback(
    async (account: ConnectedAccount): Promise<string | null> => {
      try {
        await api.delete(`/brokers/${encodeURIComponent(account.broker_account_id)}`);
      } catch (err) {
        return errorMessage(err, BROKERS_TEXTS.disconnect);
      }
      setNotice(`${account.display_name} disconnected`);
      reload();
      return null;
    },
    [reload],
  );

  /** Connects Dhan with a pasted token; resolves with the server's sentence, or null once connected. */
  const connectWithToken = useCallback(
    async (body: Extract<ConnectBrokerBody, { client_id: string }>): Promise<string | null> => {
      try {
        const { sync: result } = await api.post<{ broker_account_id: string; sync: ApiBrokerSync }>(
          '/brokers/connect',
          body,
        );
        setNotice(`Dhan connected. ${syncResultText(body.broker, result)}`);
      } catch (err) {
        return errorMessage(err, BROKERS_TEXTS.connect);
      }
      reload();
      return null;
    },
    [reload],
  );

  return {
    providers,
    accounts,
    loading: (providers === null && !providersError) || (accounts === null && !accountsError),
    loadError: providersError ?? accountsError,
    retry,
    login,
    syncing,
    outcomes,
    sync,
    disconnect,
    connectWithToken,
    notice,
    dismissNotice: useCallback(() => setNotice(null), []),
  };
}
