import { useEffect, useState } from 'react';
import { seedQuotesForHeader } from './holdingsSnapshot.ts';
import { useConnectionStatus, useLiveConnection, useLiveEvents, useNewestQuote } from './hooks.ts';
import { indicatorState } from './marketState.ts';

const CLOCK_TICK_MS = 30_000;

/**
 * The header's live-price indicator: 'Live', 'Delayed 15 min', 'Reconnecting' or 'Market closed ·
 * last price 15:30 IST'. Mounting it opens the tab's live connection. One state for the whole
 * app: it is judged from the tab's quote store, which the header seeds after each (re)connect
 * when the page has not (live/holdingsSnapshot.ts), so every page says the same.
 */
export function LiveIndicator() {
  useLiveConnection();
  // After the page's own 'connect' listeners have started their snapshot, if any.
  useLiveEvents(['connect'], () => void window.setTimeout(seedQuotesForHeader, 0));
  const status = useConnectionStatus();
  const newest = useNewestQuote();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => window.clearInterval(timer);
  }, []);
  const state = indicatorState(status, newest, Math.max(now, newest?.asOf ?? 0));
  return (
    <span
      className="live-indicator"
      data-tone={state.tone}
      role="status"
      aria-live="polite"
      title={state.description}
    >
      <span className="live-dot" aria-hidden="true" />
      <span className="live-label" aria-hidden="true">
        {state.label}
      </span>
      <span className="visually-hidden">{state.description}</span>
    </span>
  );
}
