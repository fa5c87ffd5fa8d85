import type { FeedState } from '@app/common/market/feed-state';
import type { Config } from '@app/config';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Database, DatabaseHandle } from './db/client.ts';
import type { SessionUsers } from './auth/session-users.ts';
import type { BrokerLinks } from './brokers/sync.ts';
import type { VapidKeys } from './channels/webpush/vapid.ts';
import type { CodeMessages } from './endpoints/whatsapp-code.ts';
import type { ChangeFeed } from './events/change-feed.ts';
import type { HoldingsCache } from './holdings/cache.ts';
import type { RateLimiterFactory } from './http/rate-limit.ts';
import type { Mailer } from './mail/mailer.ts';
import type { InstrumentMaster } from './instruments/master.ts';
import type { Senders } from './notifications/senders.ts';

/** What the Koa app and the services need; each process's main.ts builds it, tests build their own. */
export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  db: Database;
  log: Logger;
  /** The HS256 key for access tokens (JWT_SECRET, or one generated and kept under DATA_DIR). */
  jwtSecret: string;
  /** Commands (Redis) when REDIS_URL is set; undefined in embedded mode. */
  redis?: Redis;
  /**
   * The connection for commands a request waits on (rate limits, the session check, readiness):
   * each gives up within REDIS_REQUEST_TIMEOUT_MS (util/redis-ready.ts). With REDIS_URL only.
   */
  requestRedis?: Redis;
  rateLimiter: RateLimiterFactory;
  /** The VAPID key pair and subject push services know the app by (WEBPUSH_*, or generated into DATA_DIR). */
  vapid: VapidKeys;
  /** Sends a WhatsApp number its verification code; present when WhatsApp is configured. */
  whatsappCodes?: CodeMessages;
  /**
   * The change feed: services publish what they committed; every instance's consumer table
   * (events/consumers.ts) turns it into reloads, cache drops and socket pushes.
   */
  events: ChangeFeed;
  /** This instance's cache of signed-in sessions (the access-token check). */
  sessions: SessionUsers;
  /** This instance's cache of presented holdings; without one, lists are read from the database. */
  holdingsCache?: HoldingsCache;
  /** SendGrid, SMTP or the dev outbox (config.mailTransport). */
  mailer: Mailer;
  /** A sender per channel configured on this server (notifications/senders.ts); email always. */
  senders: Senders;
  /** The NSE/BSE symbol master, in memory. */
  instruments: InstrumentMaster;
  /**
   * The clock: what goes by the date (corporate actions' ex-dates, evening digests) and when a
   * rule's levels, an alert's price or a manual lot were last set (a late corporate-actions file
   * adjusts only what was set before the ex-date opened). Tests pass their own.
   */
  now: () => Date;
  /** The brokers' connectors (the configured ones) and the vault their sessions are sealed in. */
  brokers: BrokerLinks;
  /** Google's certificate endpoint; tests point it at a local fake. */
  googleCertsUrl?: string;
  /** Where the streamer's quote feed stands, as it last reported on the market bus (null: not reported). */
  feedState?: () => Promise<FeedState | null>;
}

/** The delivery worker as a service that records a notice sees it: send these committed outbox rows soon. */
export interface Dispatcher {
  dispatch(deliveryIds: string[]): void;
}

/**
 * What the HTTP app's routes need: AppDeps and the delivery worker's dispatch (an endpoint's
 * "Send a test" goes out at once). The runtime builds the worker from AppDeps, then the app.
 */
export type HttpDeps = AppDeps & { deliveries: Dispatcher };
