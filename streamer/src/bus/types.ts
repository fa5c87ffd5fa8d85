/**
 * The market bus between the streamer and the servers: tick batches out, the watch set in. Two implementations with the same semantics:
 * Redis (scaled mode, `./redis.ts`) and in-process (embedded mode, `./memory.ts`).
 */
import type { FeedCredentials } from '@app/common/market/feed-credentials';
import type { FeedState } from '@app/common/market/feed-state';
import type { TickBatch } from '@app/common/market/tick-batch';
import type { WatchedInstrument } from '../providers/types.ts';

export type { FeedCredentials, FeedState, WatchedInstrument };

/** Receives each valid tick batch; a throw or rejection is logged, never propagated. */
export type BatchHandler = (batch: TickBatch) => void | Promise<void>;

/** The bus both the streamer and the servers use; see the module comment. */
export interface MarketBus {
  /**
   * Validates the batch (throws a ZodError when its envelope is invalid or it holds more than
   * MAX_QUOTES_PER_BATCH quotes; a quote that breaks the contract is dropped and logged once),
   * then publishes the batch on the ticks channel. (Latest prices are stored by the servers'
   * ingest, in the database; nothing kept them in Redis usefully.)
   */
  publishBatch(batch: TickBatch): Promise<void>;
  /**
   * Calls `handler` for each batch published from now on (at most once: pub/sub). Messages are
   * validated on arrival: an invalid one is logged and dropped, and so is an invalid quote (the
   * rest of its batch is delivered). Returns the unsubscribe function.
   */
  onBatch(handler: BatchHandler): () => void;
  /**
   * Whether batches can reach this process: false from the moment the subscriber loses its
   * connection to Redis until it is back (always true in process).
   */
  isReceiving(): boolean;
  /** Calls `listener` each time `isReceiving()` changes. Returns the unsubscribe function. */
  onReceivingChange(listener: (receiving: boolean) => void): () => void;
  /** The instruments someone holds or has a rule on, sorted by instrument key. */
  getWatchSet(): Promise<WatchedInstrument[]>;
  /** Makes the watch set exactly `list` (atomically). */
  replaceWatchSet(list: readonly WatchedInstrument[]): Promise<void>;
  /** Adds instruments to the watch set. */
  addToWatchSet(list: readonly WatchedInstrument[]): Promise<void>;
  /** Removes instruments (by key, `NSE:RELIANCE`) and their reference prices from the watch set. */
  removeFromWatchSet(keys: readonly string[]): Promise<void>;
  /**
   * Publishes where the streamer's feed stands (`common/src/market/feed-state.ts`), for the
   * servers' `GET /api/market/feed`. Over Redis it expires after `ttlMs` unless written again, so
   * a streamer that died stops being reported.
   */
  setFeedState(state: FeedState, ttlMs: number): Promise<void>;
  /** The feed state last published and not expired, or null (no streamer has reported). */
  getFeedState(): Promise<FeedState | null>;
  /**
   * Publishes the streaming feed's credentials (a server, from the `FEED_USER_EMAIL` user's
   * connected account), or clears them (null: disconnected, expired, none). Kept until
   * `expiresAt`, so a streamer started later reads the current ones.
   */
  setFeedCredentials(credentials: FeedCredentials | null): Promise<void>;
  /**
   * Calls `listener` with the current credentials (null: none), then each time they change
   * (over Redis also after a reconnect, as changes may have been missed meanwhile). Returns the
   * unsubscribe function.
   */
  onFeedCredentials(listener: (credentials: FeedCredentials | null) => void): () => void;
  /** Drops every handler and closes the connections. */
  close(): Promise<void>;
}
