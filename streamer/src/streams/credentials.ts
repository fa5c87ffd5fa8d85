/**
 * Where a streaming feed's token comes from (docs/live-prices.md#streaming-feeds): the servers
 * publish the `FEED_USER_EMAIL` user's connected account on the market bus (at start and after
 * each connect, reconnect or disconnect), and the streamer hands it to its stream, which a
 * refused token leaves waiting for exactly that. The account's token wins over the environment's
 * (`KITE_ACCESS_TOKEN`, …: a headless server's), as the operator refreshes it daily; when the
 * account's is cleared, the environment's is taken again.
 */
import type { Logger } from 'pino';
import type { MarketBus } from '../bus/types.ts';
import type { Streamer } from '../streamer.ts';
import type { StreamingFeed } from './feed.ts';
import type { StreamCredentials } from './types.ts';

export interface FeedCredentialsDeps {
  bus: MarketBus;
  /** The stream's broker (`kite`): credentials published for another are ignored. */
  provider: string;
  /** The environment's credentials, when it gives any. */
  environment?: StreamCredentials;
  log: Logger;
}

/** The feed, taking each credentials the bus publishes while it runs. */
export function followFeedCredentials(feed: StreamingFeed, deps: FeedCredentialsDeps): Streamer {
  const { bus, provider, environment, log } = deps;
  let stopListening: (() => void) | undefined;
  let inForce: string | undefined = environment?.accessToken;
  const take = (credentials: StreamCredentials, from: string) => {
    if (credentials.accessToken === inForce) return;
    inForce = credentials.accessToken;
    log.info({ provider, from }, 'stream credentials changed');
    feed.setCredentials(credentials);
  };
  return {
    start() {
      stopListening ??= bus.onFeedCredentials((published) => {
        if (published && published.provider !== provider) {
          log.warn(
            { provider, published: published.provider },
            'feed credentials for another broker ignored',
          );
          return;
        }
        if (published) {
          const { accessToken, clientId, authToken } = published;
          take({ accessToken, clientId, authToken }, 'the operator account');
        } else if (environment) take(environment, 'the environment');
      });
      feed.start();
    },
    async stop() {
      stopListening?.();
      stopListening = undefined;
      await feed.stop();
    },
  };
}
