/**
 * Angel One's SmartStream wired for the streamer (docs/live-prices.md#angel-one): the stream
 * (`stream.ts`) over the tokens of Angel's scrip master (`scrip-master.ts`), read at start and
 * each morning (`../instrument-master.ts`). It needs the SmartAPI app's key, the feed token, the
 * client code and the session JWT.
 */
import type { Logger } from 'pino';
import { createInstrumentMaster, type InstrumentMasterTiming } from '../instrument-master.ts';
import { createMasterStream } from '../master-stream.ts';
import type { QuoteStream, StreamCredentials } from '../types.ts';
import type { FeedTimings } from '../upstox/connection.ts';
import { angelTokensFromScripMaster } from './scrip-master.ts';
import { createAngelOneStream } from './stream.ts';

export interface AngelOneFeedOptions {
  apiKey: string;
  wsUrl: string;
  scripMasterUrl: string;
  /** Absent: refused until `setCredentials`. */
  credentials?: StreamCredentials;
  log: Logger;
  timings?: Partial<FeedTimings>;
  masterTiming?: Partial<InstrumentMasterTiming>;
}

/** The Angel One feed; its instruments are unsupported until the scrip master has loaded. */
export function createAngelOneFeed(options: AngelOneFeedOptions): QuoteStream {
  const { log } = options;
  return createMasterStream({
    master: createInstrumentMaster({
      name: 'angelone',
      url: options.scripMasterUrl,
      parse: angelTokensFromScripMaster,
      log,
      timing: options.masterTiming,
    }),
    build: (tokens, credentials) =>
      createAngelOneStream({
        urls: { ws: options.wsUrl },
        credentials,
        apiKey: options.apiKey,
        tokens,
        log,
        timings: options.timings,
      }),
    credentials: options.credentials,
    missingCredentials:
      'no Angel One feed token (ANGELONE_FEED_TOKEN, or the operator reconnecting Angel One)',
  });
}
