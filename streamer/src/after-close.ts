/**
 * Out of market hours a real feed is polled only once per instrument after each close (so a
 * restart or a newly watched instrument still gets its closing price). One filter for the poll
 * loop and a streaming feed's fallback.
 */
import type { MarketCalendar } from '@app/common/market/calendar';
import { instrumentKey, type Quote } from '@app/common/market/tick-batch';
import type { WatchedInstrument } from './providers/types.ts';

/** Which instruments are due at a moment, by the calendar. */
export interface AfterCloseFilter {
  /**
   * Out of hours: those without a fresh quote since the last close; undefined while the market
   * is open or without a calendar (then every instrument is due).
   */
  due(instruments: readonly WatchedInstrument[], at: number): WatchedInstrument[] | undefined;
  /** Records the fresh quotes of an after-close poll. */
  polled(quotes: readonly Quote[]): void;
}

/** Creates the filter of one calendar (none: always open). */
export function createAfterCloseFilter(calendar: MarketCalendar | undefined): AfterCloseFilter {
  const polledSinceClose = new Set<string>();
  let closeMark = 0;
  return {
    due(instruments, at) {
      if (!calendar || calendar.isMarketOpen(new Date(at))) return undefined;
      const close = calendar.lastClose(new Date(at)).getTime();
      if (close !== closeMark) {
        closeMark = close;
        polledSinceClose.clear();
      }
      return instruments.filter((i) => !polledSinceClose.has(instrumentKey(i.exchange, i.symbol)));
    },
    polled(quotes) {
      for (const q of quotes) if (!q.stale) polledSinceClose.add(instrumentKey(q.exchange, q.symbol));
    },
  };
}
