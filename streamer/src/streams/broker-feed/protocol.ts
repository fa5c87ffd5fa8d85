/**
 * What a broker's feed plugs into the shared runner (`stream.ts`): its URL, its subscribe
 * frames and its decoder, each in the broker's own folder.
 */
import type { WatchedInstrument } from '../../providers/types.ts';
import type { StreamCredentials, StreamState } from '../types.ts';

/** A price as a broker's decoder read it, by the broker's own instrument key. */
export interface DecodedTick {
  key: string;
  ltp: number;
  prevClose?: number;
  exchangeTime?: number;
}

/** What one frame said: prices, or that the broker is ending the connection and why. */
export interface FrameReading {
  ticks: DecodedTick[];
  /** The broker said why it is closing (Dhan's code 50): how the stream should take it. */
  ending?: Extract<StreamState, { state: 'down' } | { state: 'auth_refused' }>;
}

/** A socket-level refusal: the broker turned the connection down before any frame. */
export class FeedRefusal extends Error {
  constructor(
    readonly kind: 'auth_refused' | 'down',
    reason: string,
  ) {
    super(reason);
    this.name = 'FeedRefusal';
  }
}

/** A broker's wire protocol, as the shared runner drives it. */
export interface FeedProtocol {
  readonly name: string;
  readonly limits: { readonly perConnection: number; readonly connections: number };
  /** The broker's key for an instrument (`NSE_EQ|INE002A01018`), or undefined when it has none. */
  keyOf(instrument: WatchedInstrument): string | undefined;
  /** Where to connect and with which headers (after any REST call the broker needs). */
  locate(credentials: StreamCredentials): Promise<{ url: string; headers?: Record<string, string> }>;
  /** The frames that subscribe (or unsubscribe) `keys`. */
  subscribeFrames(keys: string[], subscribe: boolean): Array<string | Buffer>;
  /** Decodes one frame. Never throws: what it cannot read it logs and skips. */
  read(data: Buffer, isBinary: boolean): FrameReading;
  /** A broker-level keep-alive sent every `everyMs` besides WebSocket pings (Angel's text `ping`). */
  keepAlive?: { everyMs: number; frame: string };
}
