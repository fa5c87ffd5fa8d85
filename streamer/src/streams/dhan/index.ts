/**
 * Dhan's live market feed wired for the streamer (docs/live-prices.md#dhan): the stream
 * (`stream.ts`) over the security ids of Dhan's scrip master CSV (`scrip-master.ts`), read at
 * start and each morning (`../master-stream.ts`). It needs the access token and client id.
 */
import { createMasterStream, type MasterFeedOptions } from '../master-stream.ts';
import type { QuoteStream } from '../types.ts';
import { dhanSecurityIdsFromScripMaster } from './scrip-master.ts';
import { createDhanStream } from './stream.ts';

/** The Dhan feed; its instruments are unsupported until the scrip master has loaded. */
export function createDhanFeed(options: MasterFeedOptions): QuoteStream {
  return createMasterStream(options, {
    name: 'dhan',
    parse: dhanSecurityIdsFromScripMaster,
    build: (securityIds, credentials) =>
      createDhanStream({
        urls: { ws: options.wsUrl },
        credentials,
        securityIds,
        log: options.log,
        timings: options.timings,
      }),
    missingCredentials: 'no Dhan access token (DHAN_ACCESS_TOKEN, or the operator reconnecting Dhan)',
  });
}
