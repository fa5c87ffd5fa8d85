/**
 * Publishes where the feed stands on the market bus (`common/src/market/feed-state.ts`), for
 * `GET /api/market/feed`: the poll loop after each cycle, a streaming feed on every change and
 * every few seconds. `since` moves only when the state itself changes (source, state, fallback
 * or reason), not with each report; the key expires when no report renews it (a streamer died).
 */
import { MAX_LISTED_POLLED, type FeedState } from '@app/common/market/feed-state';
import type { Logger } from 'pino';
import type { MarketBus } from './bus/types.ts';

/** A report: the state without its times, and the polled instruments' keys in full. */
export type FeedReport = Omit<FeedState, 'since' | 'at' | 'instruments'> & {
  instruments: { streamed: number; polled: number; unsupported: readonly string[] };
};

/** Reports the feed's state to the bus. */
export interface FeedStateReporter {
  /** Writes the state (errors are logged, never thrown); resolves once written or failed. */
  report(report: FeedReport): Promise<void>;
}

/** Creates the reporter of one streamer; `ttlMs` is how long a report stands unrenewed. */
export function createFeedStateReporter(deps: {
  bus: MarketBus;
  log: Logger;
  ttlMs: number;
  now?: () => number;
}): FeedStateReporter {
  const now = deps.now ?? Date.now;
  let identity = '';
  let since = 0;
  return {
    async report(report) {
      const at = now();
      const next = JSON.stringify([report.provider, report.state, report.fallback, report.reason]);
      if (next !== identity) {
        identity = next;
        since = at;
        deps.log.info(
          {
            provider: report.provider,
            state: report.state,
            fallback: report.fallback,
            reason: report.reason,
          },
          'feed state',
        );
      }
      const { unsupported } = report.instruments;
      const state: FeedState = {
        ...report,
        since,
        at,
        instruments: {
          streamed: report.instruments.streamed,
          polled: report.instruments.polled,
          unsupported: unsupported.slice(0, MAX_LISTED_POLLED),
          unsupportedCount: unsupported.length,
        },
      };
      try {
        await deps.bus.setFeedState(state, deps.ttlMs);
      } catch (err) {
        deps.log.warn({ err }, 'feed state not published');
      }
    },
  };
}
