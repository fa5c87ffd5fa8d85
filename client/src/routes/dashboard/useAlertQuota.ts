import { useEffect, useRef, useState } from 'react';
import { api, isAbortError } from '../../api/client.ts';
import { useLiveEvents } from '../../live/hooks.ts';

export interface AlertQuota {
  used: number;
  /** Null on the Advanced tier (unlimited). */
  total: number | null;
  subscription_tier: string;
}

/** How long the card waits after the last alert push before it reads the quota again. */
const QUOTA_REREAD_MS = 400;

/** 5 alerts, basic tier, when the quota cannot be read. */
export const DEFAULT_QUOTA: AlertQuota = { used: 0, total: 5, subscription_tier: 'basic' };

/**
 * `GET /api/alerts/quota`, falling back to the default quota on failure (docs/exit-rules.md); read again
 * whenever an alert fires or its emails settle, so the card counts live (issue #28).
 */
export function useAlertQuota(): AlertQuota {
  const [quota, setQuota] = useState<AlertQuota>(DEFAULT_QUOTA);
  const [reads, setReads] = useState(0);
  const pending = useRef<number | undefined>(undefined);
  // A crash day pushes thousands of alerts: one read after they pause, not one each.
  useLiveEvents(['alert', 'execution:status'], () => {
    window.clearTimeout(pending.current);
    pending.current = window.setTimeout(() => setReads((n) => n + 1), QUOTA_REREAD_MS);
  });
  useEffect(() => () => window.clearTimeout(pending.current), []);
  useEffect(() => {
    const controller = new AbortController();
    api.get<AlertQuota>('/alerts/quota', { signal: controller.signal }).then(
      (data) => {
        if (data && typeof data.used === 'number') setQuota(data);
      },
      (err: unknown) => {
        if (!isAbortError(err)) console.info('Alert quota unavailable; showing the default', err);
      },
    );
    return () => controller.abort();
  }, [reads]);
  return quota;
}
