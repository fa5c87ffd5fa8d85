import { useCallback, useSyncExternalStore } from 'react';

/** Whether a CSS media query matches, kept up to date. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (listener: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', listener);
      return () => list.removeEventListener('change', listener);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}

/** Below 768 px the holdings show as cards (docs/holdings.md#holdings-and-dashboard-screens). */
export const MOBILE_QUERY = '(max-width: 767.98px)';
