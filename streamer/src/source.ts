/**
 * The streamer a configuration asks for: the poll loop over a polling provider
 * (`simulated|replay|yahoo`), or a broker's stream with `QUOTE_FALLBACK` polled beside it
 * (`kite|upstox|angelone|dhan`). Both processes that run a streamer (the server in embedded mode,
 * `npm run streamer`) build it here. A stream takes its token from the market bus (what the
 * servers publish of the `FEED_USER_EMAIL` account, `streams/credentials.ts`), else from the
 * environment.
 */
import { STREAMING_SOURCES, type Config } from '@app/config';
import type { Logger } from 'pino';
import type { MarketBus } from './bus/types.ts';
import type { LeaderLock } from './leader.ts';
import { createProvider } from './providers/index.ts';
import { createStreamer, type Streamer } from './streamer.ts';
import { followFeedCredentials } from './streams/credentials.ts';
import { createStreamingFeed } from './streams/feed.ts';
import { createStream, credentialsFromEnvironment, type StreamSource } from './streams/index.ts';

/** What the streamer runs on, besides the configuration. */
export interface ConfiguredStreamerDeps {
  bus: MarketBus;
  log: Logger;
  leader?: LeaderLock;
}

const isStreamSource = (source: string): source is StreamSource =>
  (STREAMING_SOURCES as readonly string[]).includes(source);

/**
 * Builds the configured streamer; nothing runs before `start()`. Throws ReplayFileError (replay
 * file missing or malformed) or ConfigError (a stream not built in): the caller reports and exits.
 */
export function createConfiguredStreamer(config: Config, deps: ConfiguredStreamerDeps): Streamer {
  const { bus, log, leader } = deps;
  const source = config.QUOTE_PROVIDER;
  if (!isStreamSource(source)) {
    const provider = createProvider({ ...config, QUOTE_PROVIDER: source }, { log });
    return createStreamer({ bus, provider, intervalMs: config.QUOTE_INTERVAL_MS, log, leader });
  }
  const environment = credentialsFromEnvironment(source, config);
  const stream = createStream(source, config, { log, credentials: environment });
  const feed = createStreamingFeed({
    bus,
    stream,
    fallback: createProvider({ ...config, QUOTE_PROVIDER: config.QUOTE_FALLBACK }, { log }),
    batchMs: config.FEED_BATCH_MS,
    intervalMs: config.QUOTE_INTERVAL_MS,
    log,
    leader,
  });
  return followFeedCredentials(feed, { bus, provider: source, environment, log });
}
