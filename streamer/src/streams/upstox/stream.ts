/**
 * Upstox's Market Data Feed V3 as a QuoteStream (docs/live-prices.md#upstox). Each connect first
 * asks `GET {UPSTOX_API_URL}/v3/feed/market-data-feed/authorize` (Bearer token) for a single-use
 * `authorized_redirect_uri`, then subscribes in `ltpc` mode with JSON sent as a binary frame.
 * Instruments are keyed `NSE_EQ|<ISIN>` / `BSE_EQ|<ISIN>`, so an instrument whose ISIN is unknown
 * cannot be carried. A 401 on the authorize call is an authentication refusal.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { instrumentKey } from '@app/common/market/tick-batch';
import type { QuoteStream, StreamCredentials } from '../types.ts';
import type { FeedTimings } from './connection.ts';
import { decodeFeedResponse, type UpstoxLtpc } from './decode.ts';
import { FeedRefusal, type DecodedTick, type FeedProtocol } from './protocol.ts';
import { createFeedStream } from './reconnect.ts';

export interface UpstoxStreamOptions {
  urls: { api: string };
  credentials: StreamCredentials;
  /** ISIN by instrument key (`NSE:RELIANCE` → `INE002A01018`), from the symbol master. */
  isins: ReadonlyMap<string, string>;
  log: Logger;
  now?: () => number;
  timings?: Partial<FeedTimings>;
}

/** Upstox's V3 limits in `ltpc` mode: 5,000 keys a connection, 2 connections a user. */
const UPSTOX_LIMITS = { perConnection: 5000, connections: 2 } as const;

/** The Upstox feed; `isins` decides which instruments it can carry. */
export function createUpstoxStream(options: UpstoxStreamOptions): QuoteStream {
  const { log } = options;
  /** The last LTPC seen per key: a full update may leave the price out. */
  const last = new Map<string, UpstoxLtpc>();

  const protocol: FeedProtocol = {
    name: 'upstox',
    limits: UPSTOX_LIMITS,
    keyOf(instrument) {
      const isin = options.isins.get(instrumentKey(instrument.exchange, instrument.symbol));
      return isin ? `${instrument.exchange}_EQ|${isin}` : undefined;
    },

    async locate(credentials) {
      const response = await fetch(`${options.urls.api}/v3/feed/market-data-feed/authorize`, {
        headers: { authorization: `Bearer ${credentials.accessToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await response.json().catch(() => undefined)) as
        | {
            data?: { authorized_redirect_uri?: string };
            errors?: Array<{ errorCode?: string; message?: string }>;
          }
        | undefined;
      const error = body?.errors?.[0];
      const reason = `authorize answered ${response.status}${error ? ` ${error.errorCode}: ${error.message}` : ''}`;
      if (response.status === 401) throw new FeedRefusal('auth_refused', reason);
      const url = body?.data?.authorized_redirect_uri;
      if (!response.ok || !url) throw new FeedRefusal('down', reason);
      return { url };
    },

    subscribeFrames(keys, subscribe) {
      const message = {
        guid: randomUUID(),
        method: subscribe ? 'sub' : 'unsub',
        data: { mode: 'ltpc', instrumentKeys: keys },
      };
      return [Buffer.from(JSON.stringify(message), 'utf8')];
    },

    read(data, isBinary) {
      if (!isBinary) {
        log.warn({ text: data.toString('utf8').slice(0, 300) }, 'upstox feed said');
        return { ticks: [] };
      }
      try {
        const response = decodeFeedResponse(data);
        const ticks: DecodedTick[] = [];
        for (const [key, ltpc] of response.feeds) {
          const merged = { ...last.get(key), ...ltpc };
          last.set(key, merged);
          if (merged.ltp === undefined) continue;
          ticks.push({
            key,
            ltp: merged.ltp,
            ...(merged.cp !== undefined && { prevClose: merged.cp }),
            ...(merged.ltt !== undefined && { exchangeTime: merged.ltt }),
          });
        }
        return { ticks };
      } catch (err) {
        log.warn({ err, bytes: data.length }, 'unreadable upstox frame skipped');
        return { ticks: [] };
      }
    },
  };

  return createFeedStream(protocol, options);
}
