/**
 * Dhan's live market feed wired for the streamer (docs/live-prices.md#dhan): the stream
 * (`stream.ts`) over the security ids of Dhan's scrip master CSV (`scrip-master.ts`), read at
 * start and each morning (`../instrument-master.ts`). It needs the access token and client id.
 */
import type { Logger } from 'pino';
import { createInstrumentMaster, type InstrumentMasterTiming } from '../instrument-master.ts';
import { createMasterStream } from '../master-stream.ts';
import type { QuoteStream, StreamCredentials } from '../types.ts';
import type { FeedTimings } from '../upstox/connection.ts';
import { dhanSecurityIdsFromScripMaster } from './scrip-master.ts';
import { createDhanStream } from './stream.ts';

export interface DhanFeedOptions {
  wsUrl: string;
  scripMasterUrl: string;
  /** Absent: refused until `setCredentials`. */
  credentials?: StreamCredentials;
  log: Logger;
  timings?: Partial<FeedTimings>;
  masterTiming?: Partial<InstrumentMasterTiming>;
}

/** The Dhan feed; its instruments are unsupported until the scrip master has loaded. */
export function createDhanFeed(options: DhanFeedOptions): QuoteStream {
  const { log } = options;
  return createMasterStream({
    master: createInstrumentMaster({
      name: 'dhan',
      url: options.scripMasterUrl,
      parse: dhanSecurityIdsFromScripMaster,
      log,
      timing: options.masterTiming,
    }),
    build: (securityIds, credentials) =>
      createDhanStream({
        urls: { ws: options.wsUrl },
        credentials,
        securityIds,
        log,
        timings: options.timings,
      }),
    credentials: options.credentials,
    missingCredentials: 'no Dhan access token (DHAN_ACCESS_TOKEN, or the operator reconnecting Dhan)',
  });
}
