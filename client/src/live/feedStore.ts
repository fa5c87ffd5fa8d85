/**
 * The market feed as the server last described it (`market:feed`: source, newest price's time
 * and delay), the same for every user; null until the socket's first message. The header judges
 * the market state from it (marketState.ts), so a user without holdings reads what a user with
 * holdings reads.
 */
import type { MarketFeed } from '@app/common/market/feed';

let feed: MarketFeed | null = null;
const listeners = new Set<() => void>();

/** The feed last heard of, or null. */
export function marketFeed(): MarketFeed | null {
  return feed;
}

/** Replaces the feed (null when the connection closes) and tells the subscribers. */
export function setMarketFeed(next: MarketFeed | null): void {
  feed = next;
  for (const listener of listeners) listener();
}

/** Calls `listener` when the feed changes. Returns the unsubscribe. */
export function subscribeMarketFeed(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
