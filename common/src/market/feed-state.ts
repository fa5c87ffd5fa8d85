/**
 * Where the streamer's quote feed stands, as it publishes it on the market bus and
 * `GET /api/market/feed` answers it (docs/live-prices.md#streaming-feeds): the configured source,
 * whether it is live, falling back to polling, or down, since when, and which instruments it
 * streams and which it polls.
 */
import { z } from 'zod';

/** Most instrument keys listed as polled instead of streamed; the count is always exact. */
export const MAX_LISTED_POLLED = 500;

export const feedStateSchema = z.object({
  /** The configured source (`QUOTE_PROVIDER`). */
  provider: z.string().min(1).max(40),
  /**
   * live: the source prices every instrument it can; fallback: a stream is not live and the
   * fallback source polls in its place; down: neither is pricing.
   */
  state: z.enum(['live', 'fallback', 'down']),
  /** The polling source in force for what the stream does not carry (streams only). */
  fallback: z.string().min(1).max(40).optional(),
  /** Why it is not live (a sentence, or the broker's close reason). */
  reason: z.string().max(500).optional(),
  /** Since when this state holds (epoch ms). */
  since: z.number().int().nonnegative(),
  /** How late the prices in force are, in minutes (Yahoo on NSE/BSE: 15; a live stream: 0). */
  delayMinutes: z.number().int().nonnegative().max(1440),
  instruments: z.object({
    streamed: z.number().int().nonnegative(),
    polled: z.number().int().nonnegative(),
    /** Instruments the stream cannot carry (over its limits, unknown to the broker): polled. */
    unsupported: z.array(z.string().max(60)).max(MAX_LISTED_POLLED),
    unsupportedCount: z.number().int().nonnegative(),
  }),
  /** When the streamer wrote it (epoch ms). */
  at: z.number().int().nonnegative(),
});
export type FeedState = z.infer<typeof feedStateSchema>;
