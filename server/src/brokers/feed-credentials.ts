/**
 * The streaming feed's token from the operator's connected account
 * (docs/live-prices.md#streaming-feeds): the `FEED_USER_EMAIL` user's account at the broker
 * `QUOTE_PROVIDER` names, CONNECTED and unexpired (the latest connected, if several), opened
 * from the vault and published on the market bus for the streamer, which has no database; or
 * cleared when there is none. Run at start and after each connect, reconnect or disconnect (the
 * `brokers` change, by the instance it committed on). Any server may run it: it publishes what the
 * database holds now, so running it twice, or on two servers, publishes the same thing.
 */
import { STREAMING_SOURCES, type Config } from '@app/config';
import type { FeedCredentials } from '@app/common/market/feed-credentials';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Executor } from '../db/client.ts';
import { brokerAccounts, users } from '../db/schema.ts';
import type { BrokerSession } from './connector.ts';
import type { TokenVault } from './token-vault.ts';

export interface FeedCredentialsDeps {
  db: Executor;
  config: Pick<Config, 'QUOTE_PROVIDER' | 'FEED_USER_EMAIL'>;
  vault: TokenVault;
  bus: { setFeedCredentials(credentials: FeedCredentials | null): Promise<void> };
  log: Logger;
  now: () => Date;
}

export interface FeedCredentialsPublisher {
  /** Publishes the account's credentials now (or clears them); one run at a time, in order. */
  refresh(): Promise<void>;
  /** Resolves once every refresh asked for so far has run. */
  idle(): Promise<void>;
}

/** What a broker's stream connects with, from its stored session (null: the session lacks it). */
function credentialsOf(
  provider: string,
  session: BrokerSession,
): Omit<FeedCredentials, 'provider' | 'expiresAt'> | null {
  switch (provider) {
    case 'angelone': {
      const feedToken = session.extra?.feed_token;
      return feedToken
        ? { accessToken: feedToken, clientId: session.clientId, authToken: session.accessToken }
        : null;
    }
    case 'dhan':
      return { accessToken: session.accessToken, clientId: session.clientId };
    default:
      return { accessToken: session.accessToken };
  }
}

/** The publisher of this server; does nothing unless a stream and FEED_USER_EMAIL are configured. */
export function createFeedCredentialsPublisher(deps: FeedCredentialsDeps): FeedCredentialsPublisher {
  const provider = deps.config.QUOTE_PROVIDER;
  const email = deps.config.FEED_USER_EMAIL;
  if (!email || !(STREAMING_SOURCES as readonly string[]).includes(provider))
    return { refresh: () => Promise.resolve(), idle: () => Promise.resolve() };

  async function current(): Promise<FeedCredentials | null> {
    const at = deps.now();
    const [account] = await deps.db
      .select({ sealed: brokerAccounts.tokenCiphertext, id: brokerAccounts.id })
      .from(brokerAccounts)
      .innerJoin(users, eq(users.id, brokerAccounts.userId))
      .where(
        and(
          sql`lower(${users.email}) = ${email}`,
          eq(brokerAccounts.brokerType, 'API'),
          eq(brokerAccounts.brokerId, provider),
          eq(brokerAccounts.accountStatus, 'CONNECTED'),
          sql`${brokerAccounts.tokenExpiresAt} > ${at.toISOString()}::timestamptz`,
        ),
      )
      .orderBy(desc(brokerAccounts.statusChangedAt))
      .limit(1);
    if (!account?.sealed) return null;
    const session = deps.vault.open(account.sealed);
    const credentials = session && credentialsOf(provider, session);
    if (!session || !credentials) {
      deps.log.warn({ provider, accountId: account.id }, 'the feed account holds no usable session');
      return null;
    }
    return { provider, ...credentials, expiresAt: session.expiresAt.getTime() };
  }

  let queue: Promise<void> = Promise.resolve();
  return {
    refresh() {
      queue = queue.then(async () => {
        try {
          const credentials = await current();
          await deps.bus.setFeedCredentials(credentials);
          deps.log.info(
            { provider, published: credentials !== null },
            credentials ? 'feed credentials published' : 'no feed credentials: cleared',
          );
        } catch (err) {
          deps.log.error({ err, provider }, 'feed credentials not published');
        }
      });
      return queue;
    },
    idle: () => queue,
  };
}
