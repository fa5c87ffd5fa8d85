/** The provider factory: QUOTE_PROVIDER picks one; the rest of the code never asks which. */
import type { Config } from '@app/config';
import type { Logger } from 'pino';
import { createReplayProvider, loadReplayFile, ReplayFileError } from './replay.ts';
import { createSimulatedProvider } from './simulated.ts';
import type { QuoteProvider } from './types.ts';
import { createYahooProvider } from './yahoo.ts';

/** The configuration variables that choose and set up the provider. */
export type ProviderConfig = Pick<Config, 'REPLAY_FILE' | 'REPLAY_LOOP' | 'YAHOO_BASE_URL'> & {
  /** A polling source (a streaming one is built by `../source.ts`, with one of these as its fallback). */
  QUOTE_PROVIDER: Config['QUOTE_FALLBACK'];
};

/** Extras the configuration does not carry. */
export interface ProviderOptions {
  log?: Logger;
  /** Seed of the simulated market (default 1). */
  seed?: number;
}

/**
 * Builds the configured provider. Throws ReplayFileError when the replay file is missing or
 * malformed (the caller reports it and exits).
 */
export function createProvider(config: ProviderConfig, options: ProviderOptions = {}): QuoteProvider {
  switch (config.QUOTE_PROVIDER) {
    case 'simulated':
      return createSimulatedProvider({ seed: options.seed });
    case 'replay':
      if (!config.REPLAY_FILE)
        throw new ReplayFileError('REPLAY_FILE is required when QUOTE_PROVIDER=replay');
      return createReplayProvider({ batches: loadReplayFile(config.REPLAY_FILE), loop: config.REPLAY_LOOP });
    case 'yahoo':
      return createYahooProvider({ baseUrl: config.YAHOO_BASE_URL, log: options.log });
  }
}

export { QuoteProviderError } from './types.ts';
export type { QuoteProvider } from './types.ts';
export { ReplayFileError } from './replay.ts';
