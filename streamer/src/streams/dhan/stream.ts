/**
 * Dhan's live market feed v2 as a QuoteStream (docs/live-prices.md#dhan): credentials in the
 * query (`?version=2&token=…&clientId=…&authType=2`), ticker subscriptions (RequestCode 15,
 * unsubscribe 16) of at most 100 instruments a message, `NSE_EQ`/`BSE_EQ` with Dhan's security
 * ids (`scrip-master.ts`). A disconnect packet (code 50) says why: 807 token expired, 808 invalid
 * client id, 809 authentication failed and 806 no data plan stop until new credentials; 805 (too
 * many connections) and anything else is retried with back-off.
 */
import type { Logger } from 'pino';
import { instrumentKey } from '@app/common/market/tick-batch';
import type { InstrumentIds } from '../instrument-master.ts';
import type { QuoteStream, StreamCredentials } from '../types.ts';
import type { FeedTimings } from '../broker-feed/connection.ts';
import type { DecodedTick, FeedProtocol, FrameReading } from '../broker-feed/protocol.ts';
import { createFeedStream } from '../broker-feed/stream.ts';
import { DHAN_SEGMENTS, decodeDhanFrame } from './decode.ts';

export interface DhanStreamOptions {
  urls: { ws: string };
  /** `accessToken` is Dhan's token, `clientId` the Dhan client id. */
  credentials: StreamCredentials;
  /** Dhan's security id by instrument key (`NSE:HDFCBANK` → `1333`). */
  securityIds: InstrumentIds;
  log: Logger;
  now?: () => number;
  timings?: Partial<FeedTimings>;
}

/** 5,000 instruments a connection, 5 connections a user. */
const DHAN_LIMITS = { perConnection: 5000, connections: 5 } as const;
const PER_MESSAGE = 100;
const TICKER = 15;
const DISCONNECT_REASONS: Record<number, { refused: boolean; text: string }> = {
  805: { refused: false, text: 'too many connections' },
  806: { refused: true, text: 'the account has no Data APIs plan' },
  807: { refused: true, text: 'access token expired' },
  808: { refused: true, text: 'invalid client id' },
  809: { refused: true, text: 'authentication failed' },
};
/** The ticker's LTT counts seconds of Indian time as if it were UTC (its SDK prints it as UTC). */
const IST_OFFSET_S = 330 * 60;

const SEGMENT_NAMES = new Map<number, string>(Object.entries(DHAN_SEGMENTS).map(([name, id]) => [id, name]));

/** The Dhan feed; `securityIds` decides which instruments it can carry. */
export function createDhanStream(options: DhanStreamOptions): QuoteStream {
  const { log } = options;
  const prevCloses = new Map<string, number>();

  const protocol: FeedProtocol = {
    name: 'dhan',
    limits: DHAN_LIMITS,
    keyOf(instrument) {
      const id = options.securityIds.get(instrumentKey(instrument.exchange, instrument.symbol));
      return id ? `${instrument.exchange}_EQ|${id}` : undefined;
    },

    async locate(credentials) {
      const url = new URL(options.urls.ws);
      url.searchParams.set('version', '2');
      url.searchParams.set('token', credentials.accessToken);
      url.searchParams.set('clientId', credentials.clientId ?? '');
      url.searchParams.set('authType', '2');
      return { url: url.toString() };
    },

    subscribeFrames(keys, subscribe) {
      const frames: string[] = [];
      for (let start = 0; start < keys.length; start += PER_MESSAGE) {
        const InstrumentList = keys.slice(start, start + PER_MESSAGE).map((key) => {
          const [ExchangeSegment, SecurityId] = key.split('|') as [string, string];
          return { ExchangeSegment, SecurityId };
        });
        frames.push(
          JSON.stringify({
            RequestCode: subscribe ? TICKER : TICKER + 1,
            InstrumentCount: InstrumentList.length,
            InstrumentList,
          }),
        );
      }
      return frames;
    },

    read(data, isBinary) {
      if (!isBinary) {
        log.warn({ text: data.toString('utf8').slice(0, 300) }, 'dhan feed said');
        return { ticks: [] };
      }
      const reading: FrameReading = { ticks: [] };
      for (const packet of decodeDhanFrame(data)) {
        if (packet.kind === 'skipped') log.warn({ why: packet.why }, 'dhan packet skipped');
        else if (packet.kind === 'disconnect') {
          const known = DISCONNECT_REASONS[packet.reason];
          const reason = `disconnect ${packet.reason}${known ? `: ${known.text}` : ''}`;
          reading.ending = { state: known?.refused ? 'auth_refused' : 'down', reason };
        } else {
          const key = `${SEGMENT_NAMES.get(packet.segment) ?? packet.segment}|${packet.securityId}`;
          if (packet.kind === 'prev_close') prevCloses.set(key, packet.prevClose);
          else {
            const prevClose = prevCloses.get(key);
            const tick: DecodedTick = {
              key,
              ltp: packet.ltp,
              exchangeTime: (packet.ltt - IST_OFFSET_S) * 1000,
              ...(prevClose !== undefined && { prevClose }),
            };
            reading.ticks.push(tick);
          }
        }
      }
      return reading;
    },
  };

  return createFeedStream(protocol, options);
}
