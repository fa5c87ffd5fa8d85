import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { connectedNotice } from '../../brokers/brokerView.ts';

/**
 * `?connected=kite` (where the broker's login comes back to, docs/holdings.md#connect-a-broker):
 * says "Zerodha connected: holdings synced" through `notify`, then leaves the address.
 */
export function useConnectedNotice(notify: (notice: string) => void): void {
  const [params, setParams] = useSearchParams();
  const connected = params.get('connected');
  useEffect(() => {
    if (connected === null) return;
    const notice = connectedNotice(connected);
    if (notice) notify(notice);
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('connected');
        return next;
      },
      { replace: true },
    );
  }, [connected, notify, setParams]);
}
