import { MAX_DELIVERY_IDS, type ApiExecutionDeliveries } from '@app/common/rules/responses';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, isAbortError } from '../../api/client.ts';
import { useLiveEvent } from '../../live/hooks.ts';
import {
  periodWindow,
  type ExecutionsPage,
  type HistoryExecution,
  type PeriodDays,
} from './executionDisplay.ts';

/** The text for any failed History load (docs/exit-rules.md). */
export const HISTORY_LOAD_ERROR = 'Failed to load history';

/** Rows per request (`limit`). */
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

/** How long settles are gathered before their rows' deliveries are fetched in one request. */
const REFRESH_DELAY_MS = 300;

/**
 * Follows the `execution:status` push (an execution's deliveries settled): the row's status is
 * patched at once, and its deliveries (and those of the notice's other rows, which show the
 * lead's) fetched again, the settles of a short while gathered into one
 * `GET /api/rule-executions/deliveries?ids=` (docs/notifications.md#where-each-alert-went).
 */
function useSettledDeliveries(
  loaded: Loaded | null,
  setLoaded: (update: (prev: Loaded | null) => Loaded | null) => void,
) {
  const due = useRef(new Set<string>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const refresh = useCallback(async () => {
    timer.current = null;
    const ids = [...due.current];
    due.current.clear();
    for (let i = 0; i < ids.length; i += MAX_DELIVERY_IDS) {
      const chunk = ids.slice(i, i + MAX_DELIVERY_IDS);
      try {
        const { deliveries } = await api.get<ApiExecutionDeliveries>('/rule-executions/deliveries', {
          query: { ids: chunk.join(',') },
        });
        setLoaded(
          (prev) =>
            prev && {
              ...prev,
              executions: prev.executions.map((e) =>
                deliveries[e.id] ? { ...e, deliveries: deliveries[e.id]! } : e,
              ),
            },
        );
      } catch (err) {
        // The badges stay as they were; the next load shows them right.
        console.debug('Could not refresh the deliveries of settled executions', err);
      }
    }
  }, [setLoaded]);

  useLiveEvent('execution:status', ({ id, status }) => {
    const rows = loaded?.executions.filter((e) => e.id === id || e.notice_id === id) ?? [];
    if (rows.length === 0) return;
    setLoaded(
      (prev) =>
        prev && { ...prev, executions: prev.executions.map((e) => (e.id === id ? { ...e, status } : e)) },
    );
    for (const row of rows) due.current.add(row.id);
    timer.current ??= setTimeout(() => void refresh(), REFRESH_DELAY_MS);
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
  useSettledDeliveries(current, setLoaded);

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
