/**
 * Angel One's SmartWebSocket 2.0 as a QuoteStream (docs/live-prices.md#angel-one): headers
 * `Authorization` (the JWT), `x-api-key`, `x-client-code`, `x-feed-token`; subscriptions in LTP
 * mode (1), whose packets already carry the exchange's timestamp; exchange types 1 (nse_cm) and
 * 3 (bse_cm); a text `ping` every 10 s, answered `pong`. A 401 on the upgrade (with
 * `x-error-message`) is an authentication refusal. Instruments need Angel's token, from its scrip
 * master (`scrip-master.ts`).
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { instrumentKey } from '@app/common/market/tick-batch';
import type { InstrumentIds } from '../instrument-master.ts';
import type { QuoteStream, StreamCredentials } from '../types.ts';
import type { FeedTimings } from '../broker-feed/connection.ts';
import type { DecodedTick, FeedProtocol } from '../broker-feed/protocol.ts';
import { createFeedStream } from '../broker-feed/stream.ts';
import { decodeAngelPacket } from './decode.ts';

export interface AngelOneStreamOptions {
  urls: { ws: string };
  /** `accessToken` is the feed token, `clientId` the client code, `authToken` the JWT. */
  credentials: StreamCredentials;
  /** The SmartAPI app's key (`x-api-key`). */
  apiKey: string;
  /** Angel's token by instrument key (`NSE:SBIN` → `3045`), from `angelTokensFromScripMaster`. */
  tokens: InstrumentIds;
  log: Logger;
  now?: () => number;
  timings?: Partial<FeedTimings>;
  /** How often the text `ping` goes out (10 s, as Angel's SDK does). */
  pingEveryMs?: number;
}

/** 1,000 tokens a connection, 3 connections a client code. */
const ANGEL_LIMITS = { perConnection: 1000, connections: 3 } as const;
const EXCHANGE_TYPES = { NSE: 1, BSE: 3 } as const;
const LTP_MODE = 1;

/** The Angel One feed; `tokens` decides which instruments it can carry. */
export function createAngelOneStream(options: AngelOneStreamOptions): QuoteStream {
  const { log } = options;

  const protocol: FeedProtocol = {
    name: 'angelone',
    limits: ANGEL_LIMITS,
    keepAlive: { everyMs: options.pingEveryMs ?? 10_000, frame: 'ping' },
    keyOf(instrument) {
      const token = options.tokens.get(instrumentKey(instrument.exchange, instrument.symbol));
      return token ? `${EXCHANGE_TYPES[instrument.exchange]}|${token}` : undefined;
    },

    async locate(credentials) {
      return {
        url: options.urls.ws,
        headers: {
          authorization: credentials.authToken ?? '',
          'x-api-key': options.apiKey,
          'x-client-code': credentials.clientId ?? '',
          'x-feed-token': credentials.accessToken,
        },
      };
    },

    subscribeFrames(keys, subscribe) {
      const byType = new Map<number, string[]>();
      for (const key of keys) {
        const [type, token] = key.split('|') as [string, string];
        byType.set(Number(type), [...(byType.get(Number(type)) ?? []), token]);
      }
      const tokenList = [...byType].map(([exchangeType, tokens]) => ({ exchangeType, tokens }));
      const message = {
        correlationID: randomUUID().replace(/-/g, '').slice(0, 10),
        action: subscribe ? 1 : 0,
        params: { mode: LTP_MODE, tokenList },
      };
      return [JSON.stringify(message)];
    },

    read(data, isBinary) {
      if (!isBinary) {
        const text = data.toString('utf8');
        if (text !== 'pong') log.warn({ text: text.slice(0, 300) }, 'angel one feed said');
        return { ticks: [] };
      }
      const reading = decodeAngelPacket(data);
      if ('skipped' in reading) {
        log.warn({ why: reading.skipped }, 'angel one packet skipped');
        return { ticks: [] };
      }
      const { tick } = reading;
      const decoded: DecodedTick = {
        key: `${tick.exchangeType}|${tick.token}`,
        ltp: tick.ltp,
        exchangeTime: tick.exchangeTime,
        ...(tick.prevClose !== undefined && { prevClose: tick.prevClose }),
      };
      return { ticks: [decoded] };
    },
  };

  return createFeedStream(protocol, options);
}
