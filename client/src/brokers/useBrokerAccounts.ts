import { useCallback, useEffect, useState } from 'react';
import { api, errorMessage, isAbortError } from '../api/client.ts';
import type { ApiBrokerAccount } from '@app/common/api/brokers';
import { BROKERS_TEXTS } from './brokerView.ts';

/** The user's broker accounts (GET /api/brokers), reloaded on demand (after a sync or a disconnect). */
export function useBrokerAccounts() {
  const [accounts, setAccounts] = useState<ApiBrokerAccount[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    api.get<ApiBrokerAccount[]>('/brokers', { signal: controller.signal }).then(
      (list) => {
        setAccounts(list);
        setError(null);
      },
      (err: unknown) => {
        if (!isAbortError(err)) setError(errorMessage(err, BROKERS_TEXTS.load));
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { accounts, error, reload };
}
