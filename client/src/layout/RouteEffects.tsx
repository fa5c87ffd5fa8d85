import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { trackPageView } from '../api/events.ts';

/**
 * What happens on every route change: a page view is recorded, the window scrolls to the
 * top (unless the URL names an anchor) and keyboard focus moves to the main content.
 */
export function RouteEffects() {
  const { pathname, hash } = useLocation();
  const lastPath = useRef<string | null>(null);

  useEffect(() => {
    const previous = lastPath.current;
    if (previous === pathname) return;
    lastPath.current = pathname;
    const referrer = previous === null ? document.referrer : `${window.location.origin}${previous}`;
    trackPageView(pathname, referrer || undefined);
    if (previous === null) return;
    if (!hash) window.scrollTo(0, 0);
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname, hash]);

  return null;
}
