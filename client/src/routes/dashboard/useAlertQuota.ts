import { useEffect, useState } from 'react';
import { api, isAbortError } from '../../api/client.ts';

export interface AlertQuota {
  used: number;
  /** Null on the Advanced tier (unlimited). */
  total: number | null;
  subscription_tier: string;
}

/** Spec §9: 5 alerts, basic tier, when the quota cannot be read. */
export const DEFAULT_QUOTA: AlertQuota = { used: 0, total: 5, subscription_tier: 'basic' };

/** `GET /api/alerts/quota`, falling back to the default quota on failure (spec §7). */
export function useAlertQuota(): AlertQuota {
  const [quota, setQuota] = useState<AlertQuota>(DEFAULT_QUOTA);
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
  }, []);
  return quota;
}
