import { useEffect, useState } from 'react';
import { seedQuotesForHeader } from './holdingsSnapshot.ts';
import {
  useConnectionStatus,
  useLiveConnection,
  useLiveEvents,
  useMarketFeed,
  useNewestQuote,
} from './hooks.ts';
import { indicatorState, newestPrice } from './marketState.ts';

const CLOCK_TICK_MS = 30_000;

/**
 * The header's market state: 'Simulated prices', 'Live', 'Delayed 15 min · as of 10:41 IST',
 * 'Reconnecting' or 'Market closed · last prices 15:30 IST' (a phone shows the short words:
 * 'Simulated', 'Closed'). Mounting it opens the tab's live connection. One state for every user
 * and page: it is judged from the feed the server describes to every socket, or, before that,
 * from the tab's quote store, which the header seeds after each (re)connect when the page has
 * not (live/holdingsSnapshot.ts).
 */
export function LiveIndicator() {
  useLiveConnection();
  // After the page's own 'connect' listeners have started their snapshot, if any.
  useLiveEvents(['connect'], () => void window.setTimeout(seedQuotesForHeader, 0));
  const status = useConnectionStatus();
  const feed = useMarketFeed();
  const newest = newestPrice(feed, useNewestQuote());
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => window.clearInterval(timer);
  }, []);
  const state = indicatorState(status, newest, Math.max(now, newest?.asOf ?? 0), feed?.source);
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
      <span className="live-label-short" aria-hidden="true">
        {state.short}
      </span>
      <span className="visually-hidden">{state.description}</span>
    </span>
  );
}
