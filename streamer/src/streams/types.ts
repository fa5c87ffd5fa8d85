/**
 * The streaming seam beside the polling one (docs/live-prices.md#streaming-feeds): a broker's
 * live feed is told which instruments to watch and pushes quotes as they trade. One `QuoteStream`
 * per broker, each in its own folder (`kite/`, `upstox/`, `angelone/`, `dhan/`) decoding only its
 * own wire format; what every stream needs (subscription diffs, connection limits, reconnects with
 * back-off, the heartbeat watchdog, coalescing into tick batches, the fallback to polling) is
 * written once beside this file.
 */
import type { Exchange } from '@app/common/instruments/types';
import type { WatchedInstrument } from '../providers/types.ts';

/** One price as a stream decoded it, in rupees. */
export interface StreamQuote {
  symbol: string;
  exchange: Exchange;
  ltp: number;
  /** The previous session's close, when the mode carries it (Kite quote/full `close`, Upstox `cp`). */
  prevClose?: number;
  /** The exchange's time of the price (epoch ms); absent when the mode has none (then: received). */
  exchangeTime?: number;
  /** When the frame arrived (epoch ms). */
  receivedAt: number;
}

/** Where a stream stands; the fallback to polling follows it. */
export type StreamState =
  | { state: 'connecting' }
  | { state: 'live' }
  /** Lost or refused for a reason worth retrying (a drop, a 5xx, silence past the watchdog). */
  | { state: 'down'; reason: string }
  /** The broker refused the credentials (Kite's 403 on the upgrade after 06:00 IST): no retry until new ones. */
  | { state: 'auth_refused'; reason: string };

/** The credentials a stream connects with; where they come from is the caller's business. */
export interface StreamCredentials {
  /** Kite/Upstox access token, Angel One's feed token (with `clientCode` and the API key), Dhan's token. */
  accessToken: string;
  /** Angel One's client code, Dhan's client id. */
  clientId?: string;
  /** Angel One's JWT for the `Authorization` header. */
  authToken?: string;
}

export interface StreamHandlers {
  onQuote(quote: StreamQuote): void;
  onState(state: StreamState): void;
  /**
   * The instruments the stream cannot carry changed outside a `watch` call: its instrument list
   * arrived or was refreshed (Kite's tokens are known only once its list is loaded). The whole set.
   */
  onUnsupported?(unsupported: WatchedInstrument[]): void;
}

/** A broker's live feed. */
export interface QuoteStream {
  /** Short name, published as the tick batch's `source` (`kite`). */
  readonly name: string;
  /** The broker's documented limits: instruments per connection, and connections per key or user. */
  readonly limits: { readonly perConnection: number; readonly connections: number };
  /**
   * The instruments to watch from now on (the whole set; the stream subscribes and unsubscribes by
   * difference). Answers those it cannot carry: over its limits, or unknown to the broker's
   * instrument list; the streamer polls those from the fallback source.
   */
  watch(instruments: readonly WatchedInstrument[]): { unsupported: WatchedInstrument[] };
  /** Connects (and keeps reconnecting, except after `auth_refused`), reporting through `handlers`. */
  start(handlers: StreamHandlers): void;
  /** New credentials (the operator reconnected the broker): a refused stream connects again. */
  setCredentials(credentials: StreamCredentials): void;
  /** Closes every connection; nothing is reported after it resolves. */
  stop(): Promise<void>;
}
