/**
 * The stream factory: `QUOTE_PROVIDER=kite|upstox|angelone|dhan` picks a broker's `QuoteStream`
 * (one folder each); the credentials of a headless server come from the environment.
 */
import { ConfigError, type Config } from '@app/config';
import type { Logger } from 'pino';
import { createAngelOneFeed } from './angelone/index.ts';
import { createDhanFeed } from './dhan/index.ts';
import { createKiteStream } from './kite/index.ts';
import { createUpstoxStream } from './upstox/stream.ts';
import type { QuoteStream, StreamCredentials } from './types.ts';

/** The streaming sources (`QUOTE_PROVIDER` values built here). */
export type StreamSource = Exclude<Config['QUOTE_PROVIDER'], Config['QUOTE_FALLBACK']>;

/** The configuration variables a stream reads. */
export type StreamConfig = Pick<
  Config,
  | 'KITE_ACCESS_TOKEN'
  | 'UPSTOX_ACCESS_TOKEN'
  | 'ANGELONE_FEED_TOKEN'
  | 'ANGELONE_CLIENT_CODE'
  | 'DHAN_ACCESS_TOKEN'
  | 'DHAN_CLIENT_ID'
  | 'KITE_API_KEY'
  | 'KITE_API_URL'
  | 'KITE_WS_URL'
  | 'UPSTOX_API_URL'
  | 'ANGELONE_API_KEY'
  | 'ANGELONE_JWT_TOKEN'
  | 'ANGELONE_WS_URL'
  | 'ANGELONE_SCRIP_MASTER_URL'
  | 'DHAN_WS_URL'
  | 'DHAN_SCRIP_MASTER_URL'
>;

/** The feed credentials the environment gives a headless server, when it gives them. */
export function credentialsFromEnvironment(
  source: StreamSource,
  config: StreamConfig,
): StreamCredentials | undefined {
  switch (source) {
    case 'kite':
      return config.KITE_ACCESS_TOKEN ? { accessToken: config.KITE_ACCESS_TOKEN } : undefined;
    case 'upstox':
      return config.UPSTOX_ACCESS_TOKEN ? { accessToken: config.UPSTOX_ACCESS_TOKEN } : undefined;
    case 'angelone':
      return config.ANGELONE_FEED_TOKEN
        ? {
            accessToken: config.ANGELONE_FEED_TOKEN,
            clientId: config.ANGELONE_CLIENT_CODE,
            authToken: config.ANGELONE_JWT_TOKEN,
          }
        : undefined;
    case 'dhan':
      return config.DHAN_ACCESS_TOKEN
        ? { accessToken: config.DHAN_ACCESS_TOKEN, clientId: config.DHAN_CLIENT_ID }
        : undefined;
  }
}

/** Extras the configuration does not carry. */
export interface StreamOptions {
  log: Logger;
  credentials?: StreamCredentials;
}

/**
 * Builds the configured broker stream. Throws a ConfigError when it cannot be built: Kite or
 * Angel One without its API key: the caller reports it and exits. Upstox keys instruments by the
 * ISIN the watch set carries; Angel One and Dhan read their instrument masters themselves
 * (`ANGELONE_SCRIP_MASTER_URL`, `DHAN_SCRIP_MASTER_URL`).
 */
export function createStream(
  source: StreamSource,
  config: StreamConfig,
  options: StreamOptions,
): QuoteStream {
  if (source === 'kite') {
    if (!config.KITE_API_KEY)
      throw new ConfigError([
        'KITE_API_KEY is required when QUOTE_PROVIDER=kite (the ticker connects with it)',
      ]);
    return createKiteStream({
      apiKey: config.KITE_API_KEY,
      apiUrl: config.KITE_API_URL,
      wsUrl: config.KITE_WS_URL,
      credentials: options.credentials,
      log: options.log,
    });
  }
  if (source === 'upstox') {
    return createUpstoxStream({
      urls: { api: config.UPSTOX_API_URL },
      credentials: options.credentials,
      log: options.log,
    });
  }
  if (source === 'angelone') {
    if (!config.ANGELONE_API_KEY)
      throw new ConfigError([
        'ANGELONE_API_KEY is required when QUOTE_PROVIDER=angelone (SmartStream connects with it)',
      ]);
    return createAngelOneFeed({
      apiKey: config.ANGELONE_API_KEY,
      wsUrl: config.ANGELONE_WS_URL,
      scripMasterUrl: config.ANGELONE_SCRIP_MASTER_URL,
      credentials: options.credentials,
      log: options.log,
    });
  }
  return createDhanFeed({
    wsUrl: config.DHAN_WS_URL,
    scripMasterUrl: config.DHAN_SCRIP_MASTER_URL,
    credentials: options.credentials,
    log: options.log,
  });
}
