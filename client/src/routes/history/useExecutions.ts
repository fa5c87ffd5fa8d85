import { useCallback, useEffect, useState } from 'react';
import { api, isAbortError } from '../../api/client.ts';
import {
  periodWindow,
  type ExecutionsPage,
  type HistoryExecution,
  type PeriodDays,
} from './executionDisplay.ts';

/** The spec's text for any failed History load (§8). */
export const HISTORY_LOAD_ERROR = 'Failed to load history';

/** Rows per request (spec §7: limit 100). */
export const PAGE_SIZE = 100;

interface Loaded {
  /** Which period and attempt these rows belong to. */
  key: string;
  window: { start_date: string; end_date: string };
  executions: HistoryExecution[];
  total: number;
}

function fetchPage(window: Loaded['window'], offset: number, signal?: AbortSignal) {
  return api.get<ExecutionsPage>('/rule-executions', {
    query: { ...window, limit: PAGE_SIZE, offset },
    signal,
  });
}

/**
 * The executions of the chosen period (`GET /api/rule-executions`), newest first, with
 * 'Load more' paging inside the same time window so pages never overlap or skip.
 */
export function useExecutions(days: PeriodDays) {
  const [attempt, setAttempt] = useState(0);
  const key = `${days}:${attempt}`;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failedKey, setFailedKey] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    const window = periodWindow(days);
    fetchPage(window, 0, controller.signal).then(
      (page) => {
        setLoaded({ key, window, executions: page.executions, total: page.total });
        setError(null);
      },
      (err: unknown) => {
        if (isAbortError(err)) return;
        console.warn('Could not load the execution history', err);
        setFailedKey(key);
        setError(HISTORY_LOAD_ERROR);
      },
    );
    return () => controller.abort();
  }, [days, key]);

  const current = loaded?.key === key ? loaded : null;

  const loadMore = useCallback(async () => {
    if (!current) return;
    setLoadingMore(true);
    setError(null);
    try {
      const page = await fetchPage(current.window, current.executions.length);
      setLoaded((prev) => {
        if (prev?.key !== current.key) return prev;
        const seen = new Set(prev.executions.map((e) => e.id));
        const fresh = page.executions.filter((e) => !seen.has(e.id));
        // An empty page means the server has nothing more, whatever the count said.
        const total = fresh.length ? page.total : prev.executions.length;
        return { ...prev, executions: [...prev.executions, ...fresh], total };
      });
    } catch (err) {
      console.warn('Could not load more executions', err);
      setError(HISTORY_LOAD_ERROR);
    } finally {
      setLoadingMore(false);
    }
  }, [current]);

  return {
    executions: current?.executions ?? null,
    total: current?.total ?? 0,
    loading: !current && failedKey !== key,
    failed: !current && failedKey === key,
    error,
    dismissError: () => setError(null),
    retry: () => setAttempt((n) => n + 1),
    loadingMore,
    loadMore,
  };
}
