import { useEffect, useState } from 'react';
import { useConnectionStatus, useLiveConnection, useNewestQuote } from './hooks.ts';
import { indicatorState } from './marketState.ts';

const CLOCK_TICK_MS = 30_000;

/**
 * The header's live-price indicator: 'Live', 'Delayed 15 min', 'Reconnecting' or 'Market closed ·
 * last price 15:30 IST'. Mounting it opens the tab's live connection.
 */
export function LiveIndicator() {
  useLiveConnection();
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
