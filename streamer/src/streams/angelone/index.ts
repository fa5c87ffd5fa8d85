/**
 * Angel One's SmartStream wired for the streamer (docs/live-prices.md#angel-one): the stream
 * (`stream.ts`) over the tokens of Angel's scrip master (`scrip-master.ts`), read at start and
 * each morning (`../master-stream.ts`). It needs the SmartAPI app's key, the feed token, the
 * client code and the session JWT.
 */
import { createMasterStream, type MasterFeedOptions } from '../master-stream.ts';
import type { QuoteStream } from '../types.ts';
import { angelTokensFromScripMaster } from './scrip-master.ts';
import { createAngelOneStream } from './stream.ts';

export interface AngelOneFeedOptions extends MasterFeedOptions {
  apiKey: string;
}

/** The Angel One feed; its instruments are unsupported until the scrip master has loaded. */
export function createAngelOneFeed(options: AngelOneFeedOptions): QuoteStream {
  return createMasterStream(options, {
    name: 'angelone',
    parse: angelTokensFromScripMaster,
    build: (tokens, credentials) =>
      createAngelOneStream({
        urls: { ws: options.wsUrl },
        credentials,
        apiKey: options.apiKey,
        tokens,
        log: options.log,
        timings: options.timings,
      }),
    missingCredentials:
      'no Angel One feed token (ANGELONE_FEED_TOKEN, or the operator reconnecting Angel One)',
  });
}
