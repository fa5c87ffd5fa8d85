import { useCallback, useEffect, useState } from 'react';
import { api, errorMessage, isAbortError } from '../../api/client.ts';

/** `GET /api/auth/config`: which sign-in methods this server offers. */
export interface AuthConfig {
  demoMode: boolean;
  googleClientId: string | null;
}

interface Outcome {
  attempt: number;
  config?: AuthConfig;
  error?: string;
}

/** Loads the sign-in configuration, with a loading flag, an error text and a retry. */
export function useAuthConfig() {
  const [attempt, setAttempt] = useState(0);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    api.get<AuthConfig>('/auth/config', { signal: controller.signal, noRefresh: true }).then(
      (config) => setOutcome({ attempt, config }),
      (err: unknown) => {
        if (isAbortError(err)) return;
        setOutcome({ attempt, error: errorMessage(err, 'Could not load the sign-in options.') });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const current = outcome?.attempt === attempt ? outcome : null;
  return { loading: !current, config: current?.config, error: current?.error, retry };
}
