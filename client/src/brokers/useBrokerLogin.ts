import type { ApiBrokerLogin, BrokerId } from '@app/common/api/brokers';
import { useCallback, useState } from 'react';
import { api, errorMessage } from '../api/client.ts';
import { BROKERS_TEXTS } from './brokerView.ts';

/**
 * Connect or reconnect a broker that logs in on its own page (POST /api/brokers/connect): the
 * browser goes to the broker's login, which sends it back to the same account.
 */
export function useBrokerLogin() {
  const [starting, setStarting] = useState<BrokerId | null>(null);
  const [error, setError] = useState<string | null>(null);

  const start = useCallback(async (broker: BrokerId) => {
    setStarting(broker);
    setError(null);
    try {
      const { login_url } = await api.post<ApiBrokerLogin>('/brokers/connect', { broker });
      // The page is leaving: the button stays busy until it has gone.
      window.location.assign(login_url);
    } catch (err) {
      setStarting(null);
      setError(errorMessage(err, BROKERS_TEXTS.connect));
    }
  }, []);

  return { start, starting, error, dismissError: useCallback(() => setError(null), []) };
}
