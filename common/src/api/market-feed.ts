/**
 * The answer of `GET /api/market/feed` (docs/live-prices.md#streaming-feeds): which source
 * prices the market, whether it is live, falling back to polling or down, and which instruments
 * it streams and polls.
 */
import type { FeedState } from '../market/feed-state.ts';

export interface MarketFeedAnswer {
  provider: string;
  state: FeedState['state'];
  /** The polling source standing in for a stream (streams only). */
  fallback?: string;
  reason?: string;
  /** Since when (ISO time). */
  since: string;
  /** How late the prices in force are (Yahoo on NSE/BSE: 15; a live stream: 0). */
  delay_minutes: number;
  instruments: {
    streamed: number;
    polled: number;
    /** Instruments the stream cannot carry, polled from the fallback (`NSE:RELIANCE`; the first 500). */
    unsupported: string[];
    unsupported_count: number;
  };
}

/** The API's view of a reported feed state. */
export function presentFeedState(state: FeedState): MarketFeedAnswer {
  return {
    provider: state.provider,
    state: state.state,
    ...(state.fallback !== undefined ? { fallback: state.fallback } : {}),
    ...(state.reason !== undefined ? { reason: state.reason } : {}),
    since: new Date(state.since).toISOString(),
    delay_minutes: state.delayMinutes,
    instruments: {
      streamed: state.instruments.streamed,
      polled: state.instruments.polled,
      unsupported: state.instruments.unsupported,
      unsupported_count: state.instruments.unsupportedCount,
    },
  };
}
