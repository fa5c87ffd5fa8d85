/**
 * Upstox's Market Data Feed V3 as a QuoteStream (docs/live-prices.md#upstox). Each connect first
 * asks `GET {UPSTOX_API_URL}/v3/feed/market-data-feed/authorize` (Bearer token) for a single-use
 * `authorized_redirect_uri`, then subscribes in `ltpc` mode with JSON sent as a binary frame.
 * Instruments are keyed `NSE_EQ|<ISIN>` / `BSE_EQ|<ISIN>` from the ISIN the watch set carries, so
 * an instrument without one cannot be carried (the streamer polls it from the fallback). A 401 on
 * the authorize call is an authentication refusal.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { QuoteStream, StreamCredentials } from '../types.ts';
import type { FeedTimings } from '../broker-feed/connection.ts';
import { decodeFeedResponse, type UpstoxLtpc } from './decode.ts';
import { FeedRefusal, type DecodedTick, type FeedProtocol } from '../broker-feed/protocol.ts';
import { createFeedStream } from '../broker-feed/stream.ts';

export interface UpstoxStreamOptions {
  urls: { api: string };
  /** Absent: refused until `setCredentials` gives a token (the fallback serves meanwhile). */
  credentials?: StreamCredentials;
  log: Logger;
  now?: () => number;
  timings?: Partial<FeedTimings>;
}

/** Upstox's V3 limits in `ltpc` mode: 5,000 keys a connection, 2 connections a user. */
const UPSTOX_LIMITS = { perConnection: 5000, connections: 2 } as const;

/** An Indian ISIN: `IN`, nine characters, a check digit. */
const ISIN = /^IN[A-Z0-9]{9}[0-9]$/;

/** The Upstox feed; an instrument's ISIN decides whether it can carry it. */
export function createUpstoxStream(options: UpstoxStreamOptions): QuoteStream {
  const { log } = options;
  /** The last LTPC seen per key: a full update may leave the price out. */
  const last = new Map<string, UpstoxLtpc>();

  const protocol: FeedProtocol = {
    name: 'upstox',
    limits: UPSTOX_LIMITS,
    keyOf({ exchange, isin }) {
      return isin && ISIN.test(isin) ? `${exchange}_EQ|${isin}` : undefined;
    },

    async locate(credentials) {
      if (!credentials.accessToken)
        throw new FeedRefusal('auth_refused', 'no Upstox access token yet (UPSTOX_ACCESS_TOKEN)');
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

  return createFeedStream(protocol, { ...options, credentials: options.credentials ?? { accessToken: '' } });
}
